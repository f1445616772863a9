// A small OpenAPI 3 reader for checking the requests our adapters send: path, method, query
// parameter names and JSON body fields. Same approach as the testkit's contract helper (which a
// test in another package must not import): files come from `<repo>/../shared/data`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;

/** `shared/data` beside the repository root, resolved from this file, never a fixed path. */
export function openApiFile(name: string): string | undefined {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');
  const file = resolve(repoRoot, '../shared/data', name);
  return existsSync(file) ? file : undefined;
}

export interface SentRequest {
  method: string;
  /** Path without the server's base path or Emby's `/emby` prefix. */
  path: string;
  query: Record<string, unknown>;
  body: unknown;
}

export class OpenApi {
  private readonly doc: Json;
  private readonly templates: { template: string; regex: RegExp; literal: number }[];

  constructor(file: string) {
    this.doc = JSON.parse(readFileSync(file, 'utf8')) as Json;
    this.templates = Object.keys(this.paths).map((template) => {
      const pattern = template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      return {
        template,
        regex: new RegExp(`^${pattern}$`),
        literal: template.replace(/\{[^}]+\}/g, '').length,
      };
    });
  }

  private get paths(): Record<string, Record<string, Json>> {
    return this.doc['paths'] as Record<string, Record<string, Json>>;
  }

  private resolveRef(value: Json): Json {
    const ref = value['$ref'];
    if (typeof ref !== 'string') return value;
    let node: unknown = this.doc;
    for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Json)[part];
    return this.resolveRef(node as Json);
  }

  /** Property names of a schema, following `$ref` and `allOf`. */
  private fields(schema: Json): Set<string> {
    const s = this.resolveRef(schema);
    const out = new Set(Object.keys((s['properties'] as Json | undefined) ?? {}));
    for (const part of (s['allOf'] as Json[] | undefined) ?? []) {
      for (const f of this.fields(part)) out.add(f);
    }
    return out;
  }

  /** Everything in the request the description does not document; empty when all is known. */
  problems(req: SentRequest): string[] {
    const label = `${req.method} ${req.path}`;
    // Literal paths win over templates (`/Users/New` before `/Users/{Id}`), as in routing.
    const candidates = this.templates
      .filter((t) => t.regex.test(req.path))
      .sort((a, b) => b.literal - a.literal);
    const match = candidates.find((t) => this.paths[t.template]?.[req.method.toLowerCase()]);
    if (!match) return [`${label}: no such path and method`];
    const op = this.paths[match.template]?.[req.method.toLowerCase()] as Json;
    const params = ((op['parameters'] as Json[] | undefined) ?? []).map((p) => this.resolveRef(p));
    const queryNames = new Set(params.filter((p) => p['in'] === 'query').map((p) => p['name']));
    const out: string[] = [];
    for (const name of Object.keys(req.query)) {
      if (!queryNames.has(name)) out.push(`${label}: query parameter ${name} is not documented`);
    }
    const body = req.body;
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const content = (op['requestBody'] as Json | undefined)?.['content'] as Json | undefined;
      const schema = (content?.['application/json'] as Json | undefined)?.['schema'] as
        Json | undefined;
      if (!schema) return [...out, `${label}: sends a JSON body the operation does not take`];
      const known = this.fields(schema);
      for (const key of Object.keys(body)) {
        if (!known.has(key)) out.push(`${label}: body field ${key} is not documented`);
      }
    }
    return out;
  }
}
