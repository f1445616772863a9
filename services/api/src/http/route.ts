import type { AuthLevel } from '@usher/contracts';
import { zValidator } from '@hono/zod-validator';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './context.js';
import { guardFor, type GuardDeps } from './guards.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  /** Reply body schema; omitted for empty replies (204) and non-JSON replies. */
  schema?: z.ZodType;
  /** Media type when the reply is not JSON (e.g. `text/plain`, `text/html`). */
  contentType?: string;
}

export interface RequestSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<R extends RequestSchemas> {
  body: Infer<R['body']>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
}

/**
 * One HTTP route: its auth level, the zod schemas it validates with (which also feed the OpenAPI
 * document) and its handler. Every route must declare `auth`; the security matrix test walks
 * these definitions.
 */
export interface RouteDef<R extends RequestSchemas = RequestSchemas> {
  method: HttpMethod;
  /** Full path with hono parameters, e.g. `/api/v1/me` or `/health`. */
  path: string;
  auth: AuthLevel;
  summary: string;
  tags: string[];
  /** Whether a caller who must change their password may still use the route. */
  allowDuringPasswordChange?: boolean;
  request?: R;
  responses: Record<number, ResponseSpec>;
  /** Error codes this route documents beyond the generic ones of its auth level. */
  errors?: string[];
  /**
   * A richer JSON Schema for the OpenAPI request body than the zod schema gives, when the body's
   * keys come from a registry (validation still uses `request.body`).
   */
  documentedBody?: () => Record<string, unknown>;
  handler: (c: Context<AppEnv>, input: RouteInput<R>) => Response | Promise<Response>;
}

/** Identity function that keeps the handler's input typed from the schemas. */
export function defineRoute<R extends RequestSchemas>(route: RouteDef<R>): RouteDef<R> {
  return route;
}

/** Hook for @hono/zod-validator: throw, so validation failures take the one error path. */
const throwOnInvalid = (result: { success: boolean; error?: unknown }) => {
  if (!result.success) throw result.error;
};

/** Mounts routes on the app: route template → guard → validators → handler. */
export function mountRoutes(app: Hono<AppEnv>, routes: RouteDef[], deps: GuardDeps): void {
  for (const route of routes) {
    const chain: MiddlewareHandler<AppEnv>[] = [
      async (c, next) => {
        c.set('routeTemplate', route.path);
        await next();
      },
    ];
    const guard = guardFor(route.auth, deps, {
      allowDuringPasswordChange: route.allowDuringPasswordChange,
    });
    if (guard) chain.push(guard);
    const req = route.request;
    if (req?.params) chain.push(zValidator('param', req.params, throwOnInvalid) as never);
    if (req?.query) chain.push(zValidator('query', req.query, throwOnInvalid) as never);
    if (req?.body) chain.push(zValidator('json', req.body, throwOnInvalid) as never);
    const handler: MiddlewareHandler<AppEnv> = async (c) => {
      const valid = (target: string) => c.req.valid(target as never);
      const input = {
        body: req?.body ? valid('json') : undefined,
        query: req?.query ? valid('query') : undefined,
        params: req?.params ? valid('param') : undefined,
      } as RouteInput<RequestSchemas>;
      return route.handler(c, input);
    };
    app.on([route.method.toUpperCase()], [route.path], ...chain, handler);
  }
}
