// Minimal OpenAPI 3 reader for contract tests: finds operations and checks that a reply uses
// only field names (and enum values and JSON types) the official schema declares.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;

/** `shared/data` beside the repository root (`<root>/../shared/data`), never a fixed path. */
export function sharedDataDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const repoRoot = resolve(here, '../../../..');
  return resolve(repoRoot, '../shared/data');
}

export function openApiFile(name: string): string | undefined {
  const file = resolve(sharedDataDir(), name);
  return existsSync(file) ? file : undefined;
}

interface Flat {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Json>;
  additionalProperties?: unknown;
  items?: Json;
}

const norm = (p: string): string => p.replace(/\{[^}]+\}/g, '{}').toLowerCase();

export class OpenApi {
  private readonly doc: Json;

  constructor(file: string) {
    this.doc = JSON.parse(readFileSync(file, 'utf8')) as Json;
  }

  private get paths(): Record<string, Record<string, Json>> {
    return this.doc['paths'] as Record<string, Record<string, Json>>;
  }

  /** The spec's own template for a path, matched with parameter names ignored. */
  findPath(template: string): string | undefined {
    return Object.keys(this.paths).find((p) => norm(p) === norm(template));
  }

  operation(method: string, template: string): Json | undefined {
    const path = this.findPath(template);
    return path ? this.paths[path]?.[method.toLowerCase()] : undefined;
  }

  responseStatuses(method: string, template: string): string[] {
    return Object.keys((this.operation(method, template)?.['responses'] as Json | undefined) ?? {});
  }

  responseSchema(method: string, template: string, status = '200'): Json | undefined {
    const responses = this.operation(method, template)?.['responses'] as Json | undefined;
    const content = (responses?.[status] as Json | undefined)?.['content'] as Json | undefined;
    return (content?.['application/json'] as Json | undefined)?.['schema'] as Json | undefined;
  }

  requestSchema(method: string, template: string): Json | undefined {
    const body = this.operation(method, template)?.['requestBody'] as Json | undefined;
    const content = body?.['content'] as Json | undefined;
    return (content?.['application/json'] as Json | undefined)?.['schema'] as Json | undefined;
  }

  component(name: string): Json {
    const schemas = (this.doc['components'] as Json)['schemas'] as Record<string, Json>;
    const found = schemas[name];
    if (!found) throw new Error(`no component ${name}`);
    return found;
  }

  /** Follows `$ref` and merges `allOf` parts into one flat view. */
  flatten(schema: Json): Flat {
    const ref = schema['$ref'];
    if (typeof ref === 'string') return this.flatten(this.component(ref.split('/').pop() ?? ''));
    const flat: Flat = {};
    for (const part of (schema['allOf'] as Json[] | undefined) ?? [])
      Object.assign(flat, this.flatten(part));
    if (typeof schema['type'] === 'string') flat.type = schema['type'];
    if (Array.isArray(schema['enum'])) flat.enum = schema['enum'];
    if (schema['properties'])
      flat.properties = { ...flat.properties, ...(schema['properties'] as Record<string, Json>) };
    if (schema['additionalProperties'] !== undefined)
      flat.additionalProperties = schema['additionalProperties'];
    if (schema['items']) flat.items = schema['items'] as Json;
    return flat;
  }

  /** Field names of a (request) schema, for checking what the fake reads from bodies. */
  fieldNames(schema: Json): string[] {
    return Object.keys(this.flatten(schema).properties ?? {});
  }

  /** Collects every place where `value` does not fit `schema`. */
  check(value: unknown, schema: Json, at = '$', problems: string[] = []): string[] {
    if (value === null || value === undefined) return problems;
    const s = this.flatten(schema);
    if (s.enum && typeof value === 'string' && !s.enum.includes(value)) {
      problems.push(`${at}: "${value}" is not one of the declared enum values`);
    }
    const typeOk: Record<string, (v: unknown) => boolean> = {
      string: (v) => typeof v === 'string',
      integer: (v) => Number.isInteger(v),
      number: (v) => typeof v === 'number',
      boolean: (v) => typeof v === 'boolean',
      array: (v) => Array.isArray(v),
      object: (v) => typeof v === 'object' && !Array.isArray(v),
    };
    if (s.type && typeOk[s.type] && !typeOk[s.type]?.(value)) {
      problems.push(`${at}: expected ${s.type}, got ${JSON.stringify(value)}`);
      return problems;
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => s.items && this.check(v, s.items, `${at}[${i}]`, problems));
      return problems;
    }
    if (typeof value !== 'object') return problems;
    for (const [key, v] of Object.entries(value as Json)) {
      const prop = s.properties?.[key];
      if (prop) this.check(v, prop, `${at}.${key}`, problems);
      else if (typeof s.additionalProperties === 'object' && s.additionalProperties) {
        this.check(v, s.additionalProperties as Json, `${at}.${key}`, problems);
      } else if (s.properties && s.additionalProperties !== true) {
        problems.push(`${at}.${key}: not a field of the official schema`);
      }
    }
    return problems;
  }
}
