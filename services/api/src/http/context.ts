import type { Role } from '@usher/contracts';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { AuditActor } from '../audit-log/audit.js';
import type { UserRow } from '../db/schema/index.js';

/** The signed-in caller of a `user`/`admin` route, as loaded from the database per request. */
export interface AuthContext {
  userId: string;
  username: string;
  role: Role;
  tokenVersion: number;
  mustChangePassword: boolean;
}

/** Request facts services record in the audit log. */
export interface RequestMeta {
  ip: string | null;
  requestId: string;
}

/**
 * The signed-in caller of a `user`/`admin` route as services receive it: who they are, how the
 * audit log names them and the request facts the audit row records. A route's input is one.
 */
export interface Caller {
  auth: AuthContext;
  actor: AuditActor;
  meta: RequestMeta;
}

export interface AppVariables {
  requestId: string;
  /** The request's logger (a child carrying `requestId`) once made; read it via `requestLogger`. */
  logger?: Logger;
  /** The app's logger, from which `requestLogger` makes the request's child on first use. */
  appLogger?: Logger;
  clientIp: string | null;
  /** The route template (`/api/v1/users/:id`) once a route matched; metrics and logs use it. */
  routeTemplate?: string;
  auth?: AuthContext;
  /** The signed-in account's row as the guard read it for this request (`GET /me` answers it). */
  account?: UserRow;
}

export interface AppEnv {
  Variables: AppVariables;
}

/**
 * The request's logger, a child of the app's logger carrying `requestId`, made on first use: most
 * requests log nothing but their access line, and a pino child runs the redacting serializer over
 * its bindings (issue 21).
 */
export function requestLogger(c: Context<AppEnv>): Logger | undefined {
  let logger = c.get('logger');
  if (!logger) {
    logger = c.get('appLogger')?.child({ requestId: c.get('requestId') });
    if (logger) c.set('logger', logger);
  }
  return logger;
}
