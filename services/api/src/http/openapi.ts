import { z } from 'zod';
import { errorBodySchema } from '@usher/contracts';
import type { RouteDef } from './route.js';

type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

/**
 * Converts zod schemas to JSON Schema 2020-12 (what OpenAPI 3.1 uses), hoisting schemas that
 * carry `.meta({id})` into `components.schemas` so the document names the shared objects.
 */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const raw = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });
    // zod points shared schemas at `#/$defs/<id>`; OpenAPI keeps them under components.
    const json = JSON.parse(
      JSON.stringify(raw).replaceAll('"#/$defs/', `"${COMPONENT_PREFIX}`),
    ) as JsonSchema;
    const defs = json.$defs as Record<string, JsonSchema> | undefined;
    if (defs) {
      for (const [name, def] of Object.entries(defs)) this.components[name] ??= def;
      delete json.$defs;
    }
    delete json.$schema;
    // A top-level schema with an id comes back as itself plus an `id`; point to the component.
    const id = json.id as string | undefined;
    if (id) {
      delete json.id;
      this.components[id] ??= json;
      return { $ref: `${COMPONENT_PREFIX}${id}` };
    }
    return json;
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (VALIDATION_FAILED)',
  401: 'Not authenticated',
  403: 'Forbidden or password change required',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  422: 'Business rule refused the request',
  429: 'Rate limited (Retry-After)',
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parameters(collector: SchemaCollector, schema: z.ZodType | undefined, where: string) {
  if (!schema) return [];
  const json = collector.convert(schema, 'input');
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' ? true : required.has(name),
    schema: s,
  }));
}

export function buildOpenApiDocument(routes: RouteDef[], version: string): JsonSchema {
  const collector = new SchemaCollector();
  const errorRef = collector.convert(errorBodySchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      const content = spec.schema
        ? { 'application/json': { schema: collector.convert(spec.schema, 'output') } }
        : spec.contentType
          ? { [spec.contentType]: { schema: { type: 'string' } } }
          : undefined;
      responses[status] = { description: spec.description, ...(content ? { content } : {}) };
    }
    const errorStatuses = new Set<number>();
    if (route.request?.body || route.request?.query || route.request?.params)
      errorStatuses.add(400);
    if (route.auth === 'user' || route.auth === 'admin' || route.auth === 'internal') {
      errorStatuses.add(401);
    }
    if (route.auth === 'user' || route.auth === 'admin') errorStatuses.add(403);
    if (route.errors?.includes('RATE_LIMITED')) errorStatuses.add(429);
    if (route.errors?.some((e) => e.endsWith('_INVALID') && e.startsWith('CURRENT'))) {
      errorStatuses.add(422);
    }
    for (const status of errorStatuses) {
      responses[String(status)] ??= {
        description: STATUS_TEXT[status] ?? 'Error',
        content: { 'application/json': { schema: errorRef } },
      };
    }
    const security =
      route.auth === 'user' || route.auth === 'admin'
        ? [{ bearerAuth: [] }]
        : route.auth === 'internal'
          ? [{ internalSecret: [] }]
          : [];
    const operation: Record<string, unknown> = {
      operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string) => (ch ? ch.toUpperCase() : ''))}`,
      summary: route.summary,
      tags: route.tags,
      security,
      'x-usher-auth': route.auth,
      ...(route.errors ? { 'x-usher-errors': route.errors } : {}),
      parameters: [
        ...parameters(collector, route.request?.params, 'path'),
        ...parameters(collector, route.request?.query, 'query'),
      ],
      ...(route.request?.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: route.documentedBody
                    ? route.documentedBody()
                    : collector.convert(route.request.body, 'input'),
                },
              },
            },
          }
        : {}),
      responses,
    };
    const key = openApiPath(route.path);
    paths[key] ??= {};
    paths[key][route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Usher API',
      version,
      description:
        'Membership management for Emby and Jellyfin communities. Every error uses the shared ' +
        'body `{"error":{code,message,requestId,details?}}`.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: collector.components,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        internalSecret: { type: 'apiKey', in: 'header', name: 'X-Internal-Secret' },
      },
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A self-contained, script-free reference page (works under a strict CSP and offline). */
export function renderDocsPage(doc: JsonSchema): string {
  const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const responses = Object.keys(op.responses as object).join(', ');
      const body = (op.requestBody as { content: Record<string, { schema: unknown }> } | undefined)
        ?.content['application/json']?.schema;
      rows.push(`<section>
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(String(op.summary ?? ''))}</p>
<p class="meta">auth: <b>${escapeHtml(String(op['x-usher-auth']))}</b> · responses: ${responses}</p>
${body ? `<details><summary>Request body</summary><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre></details>` : ''}
</section>`);
    }
  }
  const info = doc.info as { title: string; version: string; description: string };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(info.title)} ${escapeHtml(info.version)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1b1b1f}
@media (prefers-color-scheme:dark){body{background:#121316;color:#e4e2e6}pre{background:#1f2024!important}}
section{border-top:1px solid #8884;padding:.5rem 0}h3{margin:.25rem 0;font-size:1rem}
.m{display:inline-block;min-width:4.5em;font-weight:700}.get{color:#2e7d32}.post{color:#1565c0}
.put,.patch{color:#ef6c00}.delete{color:#c62828}.meta{color:#777;font-size:.9em}
pre{background:#f4f4f6;padding:.5rem;overflow:auto}
</style></head><body>
<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<p>${escapeHtml(info.description)} Machine-readable: <a href="/api/v1/openapi.json">openapi.json</a>.</p>
${rows.join('\n')}
</body></html>`;
}
