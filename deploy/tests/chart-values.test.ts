/**
 * values.yaml, values.schema.json and the README's values table stay in step (70-deploy.md §7):
 * every key in one is in the other, every key is documented with `# --`, and every object the
 * chart owns rejects unknown keys. Pure file checks: no helm needed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, parseDocument, type YAMLMap } from 'yaml';
import { CHART_DIR } from './support/tools.js';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  definitions?: Record<string, Schema>;
};

const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as Schema;
const valuesText = readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8');
const readme = readFileSync(join(CHART_DIR, 'README.md'), 'utf8');

function resolveRef(node: Schema): Schema {
  if (!node.$ref) return node;
  const target = schema.definitions?.[node.$ref.replace('#/definitions/', '')];
  if (!target) throw new Error(`unresolved ${node.$ref}`);
  return target;
}

/** Key paths the schema describes; a node without `properties` is a leaf or a free-form map. */
function schemaPaths(node: Schema, prefix = ''): string[] {
  const resolved = resolveRef(node);
  if (!resolved.properties) return prefix ? [prefix] : [];
  return Object.entries(resolved.properties).flatMap(([key, child]) =>
    schemaPaths(child, prefix ? `${prefix}.${key}` : key),
  );
}

/** Whether the schema treats this path as a free-form map (annotations, resources…). */
function isFreeForm(path: string): boolean {
  let node: Schema | undefined = schema;
  for (const key of path.split('.')) node = node && resolveRef(node).properties?.[key];
  return Boolean(node) && !resolveRef(node!).properties;
}

interface ValueKey {
  path: string;
  documented: boolean;
  defaultValue: unknown;
}

/**
 * Key paths of values.yaml, descending into maps the schema owns and stopping at free-form ones.
 * `# --` on the first key of a map is stored by the parser on the map itself.
 */
function valueKeys(map: YAMLMap, prefix = ''): ValueKey[] {
  return map.items.flatMap((pair, index) => {
    const key = isScalar(pair.key) ? String(pair.key.value) : '?';
    const path = prefix ? `${prefix}.${key}` : key;
    const comment =
      (isScalar(pair.key) ? pair.key.commentBefore : undefined) ??
      (index === 0 ? map.commentBefore : undefined) ??
      '';
    const documented = /^\s*--\s/m.test(comment);
    if (isMap(pair.value) && !isFreeForm(path)) return valueKeys(pair.value, path);
    const defaultValue = isScalar(pair.value)
      ? pair.value.value
      : (pair.value as YAMLMap)?.toJSON();
    return [{ path, documented, defaultValue }];
  });
}

const doc = parseDocument(valuesText);
const keys = valueKeys(doc.contents as YAMLMap);

describe('chart values, schema and README', () => {
  it('should parse values.yaml and find its keys', () => {
    expect(doc.errors).toEqual([]);
    expect(keys.length).toBeGreaterThan(80);
  });

  it('should use JSON Schema draft-07', () => {
    expect((schema as { $schema?: string }).$schema).toBe(
      'http://json-schema.org/draft-07/schema#',
    );
  });

  it('should have a schema entry for every key in values.yaml', () => {
    const inSchema = new Set(schemaPaths(schema));
    expect(keys.map((k) => k.path).filter((p) => !inSchema.has(p))).toEqual([]);
  });

  it('should have a values.yaml key for every key in the schema', () => {
    const inValues = new Set(keys.map((k) => k.path));
    expect(schemaPaths(schema).filter((p) => !inValues.has(p))).toEqual([]);
  });

  it('should set additionalProperties: false on every object the chart owns', () => {
    const open: string[] = [];
    const walk = (node: Schema, path: string) => {
      const resolved = resolveRef(node);
      if (resolved.properties) {
        if (resolved.additionalProperties !== false) open.push(path || '(root)');
        for (const [key, child] of Object.entries(resolved.properties))
          walk(child, `${path}.${key}`);
      }
    };
    walk(schema, '');
    expect(open).toEqual([]);
  });

  it('should document every key with a `# --` comment', () => {
    expect(keys.filter((k) => !k.documented).map((k) => k.path)).toEqual([]);
  });

  it('should list every key with its default in the README values table', () => {
    const rows = new Map(
      [...readme.matchAll(/^\| `([^`]+)` \| `([^`]*)` \|/gm)].map((m) => [m[1], m[2]]),
    );
    for (const { path, defaultValue } of keys) {
      expect({ path, row: rows.get(path) }).toEqual({ path, row: JSON.stringify(defaultValue) });
    }
    expect(rows.size).toBe(keys.length);
  });

  it('should constrain bot.mode, the log levels, webhookUrl and the replica minimums', () => {
    const p = schema.properties!;
    const prop = (obj: string, key: string) =>
      resolveRef(p[obj]!).properties![key] as Schema & {
        enum?: string[];
        pattern?: string;
        minimum?: number;
      };
    expect(prop('bot', 'mode').enum).toEqual(['webhook', 'polling']);
    expect(prop('api', 'logLevel').enum).toContain('trace');
    expect(prop('bot', 'logLevel').enum).toEqual(['debug', 'info', 'warn', 'error']);
    expect(prop('bot', 'webhookUrl').pattern).toContain('https://');
    for (const c of ['api', 'web', 'bot']) expect(prop(c, 'replicas').minimum).toBe(1);
  });
});
