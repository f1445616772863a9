import type { AuthLevel } from '@usher/contracts';
import { zValidator } from '@hono/zod-validator';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { accountActor, type AuditActor } from '../audit-log/audit.js';
import type { AppEnv, AuthContext, Caller, RequestMeta } from './context.js';
import { AppError } from '../errors/app-error.js';
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

/** What a route's auth level guarantees about the caller. */
type CallerFor<A extends AuthLevel> = [A] extends ['user' | 'admin']
  ? Omit<Caller, 'meta'>
  : { auth: undefined; actor: undefined };

/**
 * A handler's input, built once by `mountRoutes`: the validated request parts, the request facts
 * every audited action records, and (on `user`/`admin` routes) the caller.
 */
export type RouteInput<R extends RequestSchemas, A extends AuthLevel = AuthLevel> = {
  body: Infer<R['body']>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
  /** Client ip and request id, for the audit log. */
  meta: RequestMeta;
} & CallerFor<A>;

/** The signed-in caller as an audit actor. */
export function actorOf(auth: AuthContext): AuditActor {
  return accountActor({ id: auth.userId, role: auth.role, username: auth.username });
}

/**
 * One HTTP route: its auth level, the zod schemas it validates with (which also feed the OpenAPI
 * document) and its handler. Every route must declare `auth`; the security matrix test walks
 * these definitions.
 */
export interface RouteDef<
  R extends RequestSchemas = RequestSchemas,
  A extends AuthLevel = AuthLevel,
> {
  method: HttpMethod;
  /** Full path with hono parameters, e.g. `/api/v1/me` or `/health`. */
  path: string;
  auth: A;
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
  handler(c: Context<AppEnv>, input: RouteInput<R, A>): Response | Promise<Response>;
}

/** Identity function that keeps the handler's input typed from the schemas and the auth level. */
export function defineRoute<R extends RequestSchemas, A extends AuthLevel>(
  route: RouteDef<R, A>,
): RouteDef {
  return route as unknown as RouteDef;
}

/** A route of a group: the group gives method, path, auth and tags; `tags` may still be overridden. */
export type GroupRoute<R extends RequestSchemas, A extends AuthLevel> = Omit<
  RouteDef<R, A>,
  'method' | 'path' | 'auth' | 'tags' | 'handler'
> & { tags?: string[] } & (
    | Pick<RouteDef<R, A>, 'handler'>
    | {
        /** The common handler's work: its result is the 200 JSON reply (`c.json(await json(input))`). */
        json(input: RouteInput<R, A>): Promise<unknown>;
      }
  );

type GroupMethods<A extends AuthLevel> = {
  [M in HttpMethod]: <R extends RequestSchemas>(path: string, route: GroupRoute<R, A>) => RouteDef;
};

function handlerOf<R extends RequestSchemas, A extends AuthLevel>(
  route: GroupRoute<R, A>,
): RouteDef<R, A>['handler'] {
  if ('handler' in route) return route.handler;
  const { json } = route;
  return async (c, input) => c.json(await json(input));
}

/**
 * The routes of one OpenAPI tag, by auth level then method: `api.admin.post(path, {...})` is
 * `defineRoute({ method: 'post', path, auth: 'admin', tags, ...})`, so a route table states what
 * differs per route (summary, schemas, errors, handler) and not the parts its file shares.
 */
export function routeGroup(...tags: string[]): { [A in AuthLevel]: GroupMethods<A> } {
  const level = <A extends AuthLevel>(auth: A): GroupMethods<A> => {
    const method =
      (m: HttpMethod) =>
      <R extends RequestSchemas>(path: string, route: GroupRoute<R, A>) =>
        defineRoute<R, A>({ method: m, path, auth, tags, ...route, handler: handlerOf(route) });
    return {
      get: method('get'),
      post: method('post'),
      put: method('put'),
      patch: method('patch'),
      delete: method('delete'),
    };
  };
  return {
    public: level('public'),
    user: level('user'),
    admin: level('admin'),
    internal: level('internal'),
    webhook: level('webhook'),
  };
}

/** The reply of a route that answers without a body: 204 once `work` is done. */
export async function noContent(c: Context, work: Promise<unknown>): Promise<Response> {
  await work;
  return c.body(null, 204);
}

/** The errors of a route that calls an outbound system (20-api.md §1.5: 502 and 503). */
export const UPSTREAM_ERRORS = ['UPSTREAM_UNAVAILABLE', 'UPSTREAM_AUTH_FAILED', 'NOT_CONFIGURED'];

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * A route with a JSON body refuses a body sent as anything else with 415 (issue 16): the JSON
 * validator reads a non-JSON body as `{}`, so a PATCH whose fields are all optional would
 * otherwise succeed without looking at what was sent. A request without a body (no length, no
 * chunks, no content type) still validates as `{}`, as before.
 */
const requireJsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const length = c.req.header('content-length');
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  const hasBody =
    length !== undefined
      ? length !== '0'
      : c.req.header('transfer-encoding') !== undefined || type !== '';
  if (hasBody && !JSON_MEDIA_TYPE.test(type)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The request body must be JSON (Content-Type: application/json)',
    );
  }
  await next();
};

/** Hook for @hono/zod-validator: throw, so validation failures take the one error path. */
const throwOnInvalid = (result: { success: boolean; error?: unknown }) => {
  if (!result.success) throw result.error;
};

/**
 * A route that declares no query schema takes no query parameters: 20-api.md §1 "request schemas
 * are strict" holds for the query too, so `?userId=<other>` is a 400, not silently ignored.
 */
const NO_QUERY = z.strictObject({});
const refuseQuery: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.url.includes('?')) NO_QUERY.parse(c.req.query());
  await next();
};

/** Mounts routes on the app: route template → guard → validators → handler. */
export function mountRoutes(app: Hono<AppEnv>, routes: RouteDef[], deps: GuardDeps): void {
  for (const route of routes) {
    const guard = guardFor(route.auth, deps, {
      allowDuringPasswordChange: route.allowDuringPasswordChange,
    });
    // The route template and the guard share one level of hono's chain (issue 21).
    const chain: MiddlewareHandler<AppEnv>[] = [
      (c, next) => {
        c.set('routeTemplate', route.path);
        return guard ? guard(c, next) : next();
      },
    ];
    const req = route.request;
    if (req?.params) chain.push(zValidator('param', req.params, throwOnInvalid) as never);
    if (req?.query) chain.push(zValidator('query', req.query, throwOnInvalid) as never);
    else chain.push(refuseQuery);
    if (req?.body) {
      chain.push(requireJsonBody, zValidator('json', req.body, throwOnInvalid) as never);
    }
    const handler: MiddlewareHandler<AppEnv> = async (c) => {
      const valid = (target: string) => c.req.valid(target as never);
      const auth = c.get('auth');
      const input = {
        body: req?.body ? valid('json') : undefined,
        query: req?.query ? valid('query') : undefined,
        params: req?.params ? valid('param') : undefined,
        meta: { ip: c.get('clientIp'), requestId: c.get('requestId') },
        auth,
        actor: auth ? actorOf(auth) : undefined,
      } as RouteInput<RequestSchemas>;
      return route.handler(c, input);
    };
    app.on([route.method.toUpperCase()], [route.path], ...chain, handler);
  }
}
