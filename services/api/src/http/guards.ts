import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthLevel } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { TokenSigner } from '../auth/tokens.js';
import type { Database } from '../db/client.js';
import { users } from '../db/schema/index.js';
import type { AppEnv } from './context.js';
import { AppError } from './errors.js';

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
        const header = c.req.header('authorization');
        const match = header ? BEARER.exec(header.trim()) : null;
        if (!match) throw new AppError('UNAUTHENTICATED', 'Sign in to continue');
        const claims = await deps.tokens.verify(match[1]!);
        if (!claims) throw new AppError('TOKEN_INVALID', 'Your session is invalid or expired');
        const [row] = await deps.db
          .select({
            id: users.id,
            username: users.username,
            role: users.role,
            isActive: users.isActive,
            tokenVersion: users.tokenVersion,
            mustChangePassword: users.mustChangePassword,
          })
          .from(users)
          .where(eq(users.id, claims.sub))
          .limit(1);
        if (!row || !row.isActive || row.tokenVersion !== claims.ver || row.role !== claims.role) {
          throw new AppError('TOKEN_REVOKED', 'Your session has ended; sign in again');
        }
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
        await next();
      };
  }
}
