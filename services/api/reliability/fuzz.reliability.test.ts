// Property-based fuzzing from the OpenAPI document: every operation × RELIABILITY_FUZZ_RUNS
// (default 200) invalid inputs — NUL, lone surrogates, 1 MB strings, wrong types, extra fields,
// malformed JSON, wrong content type — must answer 4xx in the shared error shape, never 5xx, and
// change nothing in the database.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { RouteDef } from '../src/http/route.js';
import { recordFigures } from './figures.js';
import { isErrorShape, reliabilityEnv, secretFindings, type ReliabilityEnv } from './harness.js';

const RUNS = Number(process.env.RELIABILITY_FUZZ_RUNS ?? 200);
const SEED = Number(process.env.RELIABILITY_SEED ?? 16);
const MB = 'x'.repeat(1024 * 1024);

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** One generated request. */
interface Input {
  kind: string;
  path: Record<string, string>;
  query: Record<string, string>;
  body?: { raw: string; contentType: string };
}

let doc: {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
const resolve = (schema: Schema | undefined): Schema => {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const name = (s.$ref as string).split('/').pop()!;
    s = doc.components?.schemas?.[name] ?? {};
  }
  return s;
};
const typesOf = (schema: Schema): string[] => {
  const s = resolve(schema);
  if (Array.isArray(s.type)) return s.type as string[];
  if (typeof s.type === 'string') return [s.type];
  const alts = (s.anyOf ?? s.oneOf ?? s.allOf) as Schema[] | undefined;
  return alts ? alts.flatMap(typesOf) : [];
};

/** A value of the declared shape (not necessarily valid: mutations make it invalid anyway). */
function sample(schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 4) return null;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('const' in s) return s.const;
  const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alts?.length)
    return sample(alts.find((a) => resolve(a).type !== 'null') ?? alts[0], depth + 1);
  switch (typesOf(s)[0]) {
    case 'string':
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'uuid') return uuidv7();
      if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (s.format === 'date') return '2026-01-01';
      return 'abc';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required ?? []) as string[]);
      return Object.fromEntries(
        Object.entries(props)
          .filter(([k]) => required.has(k))
          .map(([k, v]) => [k, sample(v, depth + 1)]),
      );
    }
    default:
      return 'abc';
  }
}

/** Strings no request may carry. */
const badString = fc.oneof(
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.string({ maxLength: 20 }).map((s) => `${s}\uD800`),
  fc.string({ maxLength: 20 }).map((s) => `\uDC00${s}`),
  fc.constant(MB),
);

/** A JSON value of a type the schema does not accept. */
function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const types = new Set(typesOf(schema));
  const options: fc.Arbitrary<unknown>[] = [];
  if (!types.has('string')) options.push(fc.string({ maxLength: 10 }));
  if (!types.has('integer') && !types.has('number')) options.push(fc.integer());
  if (!types.has('boolean')) options.push(fc.boolean());
  if (!types.has('array')) options.push(fc.array(fc.integer(), { maxLength: 3 }));
  if (!types.has('object')) options.push(fc.constant({ nested: [1, { deeper: true }] }));
  return options.length > 0 ? fc.oneof(...options) : badString;
}

/** Wrong-typed text for a query or path parameter (everything there travels as a string). */
function badParam(schema: Schema | undefined): fc.Arbitrary<string> {
  const types = new Set(typesOf(schema ?? {}));
  // A URL cannot carry a lone surrogate (UTF-8 has no bytes for one): NUL and length only.
  const wrong: fc.Arbitrary<string>[] = [
    fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
    fc.constant(MB.slice(0, 8192)),
  ];
  if (types.has('integer') || types.has('number')) {
    wrong.push(fc.constantFrom('abc', '1e999', '-1.5', 'NaN', '1,2'));
  }
  if (types.has('boolean')) wrong.push(fc.constantFrom('yes', 'maybe', '2'));
  return fc.oneof(...wrong);
}

/**
 * Days and instants at the ends of `YYYY-MM-DD`: a day after 9999-12-31 is year 10000, and
 * `Date.UTC` reads years 0–99 as 1900–1999. In a query they may be valid (0001-01-01 is a day):
 * a reply may be 2xx, never 5xx. In a body only the out-of-range ones are sent, and refused.
 */
const EDGE_DAYS = [
  '9999-12-31',
  '9999-12-27',
  '9998-12-31',
  '0001-01-01',
  '0099-12-31',
  '0000-01-01',
];
const OUT_OF_RANGE_DAYS = ['9999-12-31', '9999-12-27', '0000-01-01'];
const EDGE_INSTANTS = [
  '9999-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00.000Z',
  '0000-01-01T00:00:00.000Z',
];
/** Kinds whose inputs may be valid, so a 2xx is no finding (5xx and the error shape still are). */
const MAY_BE_VALID = new Set(['date edge']);

const formatsOf = (schema: Schema | undefined): unknown[] => {
  const s = resolve(schema);
  const alts = (s.anyOf ?? s.oneOf ?? []) as Schema[];
  return [s.format, ...alts.flatMap(formatsOf)];
};
const OUT_OF_RANGE_INSTANTS = ['9999-12-31T23:59:59.999Z', '0000-01-01T00:00:00.000Z'];
const edgesFor = (schema: Schema | undefined, days: string[], instants: string[]): string[] => {
  const formats = formatsOf(schema);
  return [
    ...(formats.includes('date') ? days : []),
    ...(formats.includes('date-time') ? instants : []),
  ];
};

/** The invalid inputs of one operation. */
function inputsFor(op: Operation): fc.Arbitrary<Input> | null {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const validPath = () =>
    Object.fromEntries(pathParams.map((p) => [p.name, String(sample(p.schema))]));
  const kinds: fc.Arbitrary<Input>[] = [];

  if (bodySchema) {
    const s = resolve(bodySchema);
    const props = Object.keys((s.properties ?? {}) as Record<string, Schema>);
    const base = (sample(bodySchema) ?? {}) as Record<string, unknown>;
    const json = (value: unknown, kind: string): Input => ({
      kind,
      path: validPath(),
      query: {},
      body: { raw: JSON.stringify(value), contentType: 'application/json' },
    });
    if (props.length > 0) {
      const propSchema = (name: string) => (s.properties as Record<string, Schema>)[name] ?? {};
      const badProp = fc
        .constantFrom(...props)
        .chain((name) =>
          fc.oneof(badString, wrongType(propSchema(name))).map((value) => ({ name, value })),
        );
      kinds.push(badProp.map(({ name, value }) => json({ ...base, [name]: value }, 'bad field')));
      kinds.push(
        fc
          .tuple(badProp, fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
          .filter(([, extra]) => !props.includes(extra) && extra !== '__proto__')
          .map(([{ name, value }, extra, extraValue]) =>
            json({ ...base, [name]: value, [extra]: extraValue }, 'extra field'),
          ),
      );
    } else {
      // A free-form object (e.g. a record of settings): bad keys and bad values.
      kinds.push(
        fc
          .tuple(fc.oneof(badString, fc.constant('k')), fc.oneof(badString, wrongType(s)))
          .filter(([k, v]) => k !== 'k' || typeof v === 'string')
          .map(([k, v]) => json({ [k]: v }, 'bad record')),
      );
    }
    const dated = Object.entries((s.properties ?? {}) as Record<string, Schema>).flatMap(
      ([name, schema]) =>
        edgesFor(schema, OUT_OF_RANGE_DAYS, OUT_OF_RANGE_INSTANTS).map((value) => ({
          name,
          value,
        })),
    );
    if (dated.length > 0) {
      kinds.push(
        fc
          .constantFrom(...dated)
          .map(({ name, value }) => json({ ...base, [name]: value }, 'date out of range')),
      );
    }
    kinds.push(
      fc
        .oneof(
          fc.integer(),
          fc.string({ maxLength: 10 }),
          fc.array(fc.integer()),
          fc.constant(null),
        )
        .map((v) => json(v, 'not an object')),
    );
    kinds.push(
      fc.string({ maxLength: 30 }).map((t) => ({
        kind: 'malformed JSON',
        path: validPath(),
        query: {},
        body: { raw: `{"${t}`, contentType: 'application/json' },
      })),
    );
    kinds.push(
      fc
        .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml')
        .map((contentType) => ({
          kind: 'wrong content type',
          path: validPath(),
          query: {},
          body: { raw: JSON.stringify(base), contentType },
        })),
    );
  }
  if (queryParams.length > 0) {
    kinds.push(
      fc
        .constantFrom(...queryParams)
        .chain((p) => badParam(p.schema).map((value) => ({ p, value })))
        .map(({ p, value }) => ({
          kind: 'bad query',
          path: validPath(),
          query: { [p.name]: value },
        })),
    );
  }
  const datedQuery = queryParams.flatMap((p) =>
    edgesFor(p.schema, EDGE_DAYS, EDGE_INSTANTS).map((value) => ({ name: p.name, value })),
  );
  if (datedQuery.length > 0) {
    kinds.push(
      fc.constantFrom(...datedQuery).map(({ name, value }) => ({
        kind: 'date edge',
        path: validPath(),
        query: { [name]: value },
      })),
    );
  }
  if (pathParams.length > 0) {
    kinds.push(
      fc
        .constantFrom(...pathParams)
        .chain((p) => badParam(p.schema).map((value) => ({ p, value })))
        .map(({ p, value }) => ({
          kind: 'bad path',
          path: { ...validPath(), [p.name]: value },
          query: {},
        })),
    );
  }
  return kinds.length > 0 ? fc.oneof(...kinds) : null;
}

/** Junk for an operation that declares no input at all: it must still never fail with a 5xx. */
const junk: fc.Arbitrary<Input> = fc
  .tuple(badString, fc.constantFrom('text/plain', 'application/json'))
  .map(([s, contentType]) => ({
    kind: 'junk',
    path: {},
    query: { unexpected: s.slice(0, 8192) },
    body: { raw: s === MB ? s : `{"${s}`, contentType },
  }));

/**
 * Percent-encodes like encodeURIComponent, but a lone surrogate (which UTF-8 cannot carry)
 * becomes the bytes a careless client would send for it (CESU-8, e.g. %ED%A0%80).
 */
function encodeLoose(text: string): string {
  return text
    .split(/([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/)
    .map((part) => {
      if (part.length === 1 && /[\uD800-\uDFFF]/.test(part)) {
        const c = part.charCodeAt(0);
        return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      }
      return encodeURIComponent(part);
    })
    .join('');
}

/** A digest of every table, to prove the inputs changed nothing. */
async function fingerprint(env: ReliabilityEnv): Promise<Record<string, string>> {
  const db = env.t.context.db;
  const tables = (await db.execute(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows: { name: string }[] };
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const res = (await db.execute(
      sql.raw(
        `select count(*)::text || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as d from "${name}" t`,
      ),
    )) as unknown as { rows: { d: string }[] };
    out[name] = res.rows[0]!.d;
  }
  return out;
}

let env: ReliabilityEnv;
afterAll(() => env.close());

describe('fuzzing from the OpenAPI document', () => {
  it(`should answer ${RUNS} invalid inputs per operation with 4xx in the error shape and change nothing`, async () => {
    env = await reliabilityEnv();
    const admin = await env.admin();
    const routes = env.t.routes as RouteDef[];
    doc = JSON.parse((await env.send('GET', '/api/v1/openapi.json')).text) as typeof doc;

    const headersFor = (route: RouteDef | undefined): Record<string, string> => {
      switch (route?.auth) {
        case 'user':
        case 'admin':
          return { authorization: `Bearer ${admin.token}` };
        case 'internal':
          return { 'x-internal-secret': env.t.config.INTERNAL_API_SECRET };
        case 'webhook':
          return route.path.includes('media-server')
            ? { 'x-usher-webhook-token': env.env.MEDIA_SERVER_WEBHOOK_TOKEN! }
            : {};
        default:
          return {};
      }
    };

    let operations = 0;
    let withInputs = 0;
    let requests = 0;
    let fiveXx = 0;
    let outsideShape = 0;
    let accepted = 0;
    const problems: string[] = [];
    const changed: string[] = [];
    const byKind: Record<string, number> = {};
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        operations++;
        const honoPath = template.replace(/\{([^}]+)\}/g, ':$1');
        const route = routes.find((r) => r.method === method && r.path === honoPath);
        const arb = inputsFor(op);
        if (arb) withInputs++;
        const inputs = fc.sample(arb ?? junk, { numRuns: RUNS, seed: SEED + operations });
        const before = arb ? await fingerprint(env) : null;
        for (const input of inputs) {
          requests++;
          byKind[input.kind] = (byKind[input.kind] ?? 0) + 1;
          const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
            encodeLoose(input.path[name] ?? uuidv7()),
          );
          const query = Object.entries(input.query)
            .map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`)
            .join('&');
          // A GET carries no body (fetch refuses one).
          const body = method === 'get' ? undefined : input.body;
          const { res, text } = await env.send(method, `${path}${query ? `?${query}` : ''}`, {
            headers: {
              ...headersFor(route),
              ...(body ? { 'content-type': body.contentType } : {}),
            },
            ...(body ? { rawBody: body.raw } : {}),
          });
          const label = `${method.toUpperCase()} ${template} (${input.kind})`;
          if (res.status >= 500) {
            fiveXx++;
            problems.push(`${label}: ${res.status} ${text.slice(0, 120)}`);
          }
          if (res.status >= 400 && !isErrorShape(res, text)) {
            outsideShape++;
            problems.push(`${label}: ${res.status} outside the error shape`);
          }
          if (arb && res.status < 400 && !MAY_BE_VALID.has(input.kind)) {
            accepted++;
            problems.push(
              `${label}: accepted with ${res.status}: ${JSON.stringify(input).slice(0, 160)}`,
            );
          }
        }
        if (before) {
          const after = await fingerprint(env);
          for (const table of Object.keys(after)) {
            if (after[table] !== before[table])
              changed.push(`${method.toUpperCase()} ${template}: ${table}`);
          }
        }
      }
    }
    recordFigures('fuzzing (fast-check, OpenAPI)', {
      operations,
      operationsWithInputs: withInputs,
      inputsPerOperation: RUNS,
      requests,
      inputsByKind: byKind,
      fiveXx,
      repliesOutsideErrorShape: outsideShape,
      invalidInputsAccepted: accepted,
      stateChanges: changed.length,
      seed: SEED,
    });
    if (process.env.RELIABILITY_DEBUG) {
      process.stdout.write(
        `${JSON.stringify({ problems, changed }, null, 1)}\n${env.t.logs
          .text()
          .split('\n')
          .filter((l) => l.includes('"level":"error"'))
          .slice(0, 5)
          .join('\n')
          .slice(0, 4000)}\n`,
      );
    }
    expect(problems.slice(0, 40)).toEqual([]);
    expect(changed).toEqual([]);
    expect(operations).toBeGreaterThan(80);
    expect(secretFindings(env)).toEqual([]);
  });
});
