import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthLevel } from '@usher/contracts';
import { eq, sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { TokenSigner } from '../security/tokens.js';
import type { Database } from '../db/client.js';
import { users, type UserRow } from '../db/schema/index.js';
import type { AppEnv, AuthContext } from './context.js';
import { AppError } from '../errors/app-error.js';

/** Constant-time equality of two secrets of any length (hash first, then compare digests). */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export interface GuardDeps {
  db: Database;
  tokens: TokenSigner;
  internalApiSecret: string;
}

export interface GuardOptions {
  /** Whether the route stays reachable while the caller must change their password. */
  allowDuringPasswordChange?: boolean;
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/**
 * The signed-in account's row by primary key, built once per database: drizzle no longer rebuilds
 * the query and its selection on every authenticated request (issue 21). The statement is left
 * unnamed (`''`): a named server-side statement outlives the client that prepared it wherever one
 * server session serves several connections (PGlite over its socket, a transaction-mode pooler),
 * and the next client's Parse then fails with 42P05 — a 500 on every request after a reconnect.
 * The whole row is read, so `GET /me` answers from it without a second query.
 */
const accountQueries = new WeakMap<Database, ReturnType<typeof prepareAccountQuery>>();
function prepareAccountQuery(db: Database) {
  return db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('');
}
async function loadAccount(db: Database, id: string): Promise<UserRow | undefined> {
  let query = accountQueries.get(db);
  if (!query) {
    query = prepareAccountQuery(db);
    accountQueries.set(db, query);
  }
  const [row] = await query.execute({ id });
  return row;
}

/**
 * The account a bearer header signs in, by the `user` guard's checks in its order, or the guard's
 * error: no or a malformed header, a token that does not verify, an account that is gone,
 * deactivated, or whose token version or role no longer match the token's.
 */
async function authenticate(
  header: string | undefined,
  deps: Pick<GuardDeps, 'db' | 'tokens'>,
): Promise<UserRow> {
  const match = header ? BEARER.exec(header.trim()) : null;
  if (!match) throw new AppError('UNAUTHENTICATED', 'Sign in to continue');
  const claims = await deps.tokens.verify(match[1]!);
  if (!claims) throw new AppError('TOKEN_INVALID', 'Your session is invalid or expired');
  const row = await loadAccount(deps.db, claims.sub);
  if (!row || !row.isActive || row.tokenVersion !== claims.ver || row.role !== claims.role) {
    throw new AppError('TOKEN_REVOKED', 'Your session has ended; sign in again');
  }
  return row;
}

/**
 * The account behind a bearer token, by the `user` guard's checks (a forced password change does
 * not refuse it), for a `public` route that also takes a token (the poster proxy).
 */
export async function bearerAccount(
  header: string | undefined,
  deps: Pick<GuardDeps, 'db' | 'tokens'>,
): Promise<UserRow> {
  return authenticate(header, deps);
}

/** The middleware that enforces a route's declared auth level (20-api.md §1.2, §1.3). */
export function guardFor(
  level: AuthLevel,
  deps: GuardDeps,
  options: GuardOptions = {},
): MiddlewareHandler<AppEnv> | undefined {
  switch (level) {
    case 'public':
    case 'webhook':
      // Webhook routes verify their own signature or token; it depends on the sender.
      return undefined;
    case 'internal':
      return async (c, next) => {
        const given = c.req.header('x-internal-secret');
        if (!given || !secretsEqual(given, deps.internalApiSecret)) {
          throw new AppError('INTERNAL_AUTH_FAILED', 'Missing or wrong X-Internal-Secret');
        }
        await next();
      };
    case 'user':
    case 'admin':
      return async (c, next) => {
        const row = await authenticate(c.req.header('authorization'), deps);
        if (level === 'admin' && row.role !== 'admin') {
          throw new AppError('FORBIDDEN', 'Administrators only');
        }
        if (row.mustChangePassword && !options.allowDuringPasswordChange) {
          throw new AppError('PASSWORD_CHANGE_REQUIRED', 'Change your password to continue');
        }
        c.set('auth', {
          userId: row.id,
          username: row.username,
          role: row.role as 'admin' | 'user',
          tokenVersion: row.tokenVersion,
          mustChangePassword: row.mustChangePassword,
        });
        c.set('account', row);
        await next();
      };
  }
}

/**
 * The signed-in caller of a `public` route that reads better with one (metadata search's
 * availability, issue 14), or undefined: never throws. A missing, malformed, expired or revoked
 * token, a deactivated account and one that must change its password all count as anonymous,
 * by the same checks as the `user` guard.
 */
export async function optionalCaller(
  header: string | undefined,
  deps: Pick<GuardDeps, 'db' | 'tokens'>,
): Promise<Pick<AuthContext, 'userId' | 'role'> | undefined> {
  if (!header) return undefined;
  let row: UserRow;
  try {
    row = await authenticate(header, deps);
  } catch (error) {
    // The guard's refusals mean "anonymous" here; anything else (the database) is a real error.
    if (error instanceof AppError) return undefined;
    throw error;
  }
  if (row.mustChangePassword) return undefined;
  return { userId: row.id, role: row.role as 'admin' | 'user' };
}
