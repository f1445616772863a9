import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Database } from '../db/client.js';
import { rateLimits } from '../db/schema/index.js';
import { AppError } from './errors.js';

export interface LimitSpec {
  /** Prefix of the stored key, e.g. `login_user_ip`. */
  name: string;
  /** Failures (or attempts) allowed per window. */
  points: number;
  durationSeconds: number;
}

/**
 * A counter stored in PostgreSQL (`rate_limits`) so every replica sees the same count
 * (00-architecture.md decision 3). Used as a failure counter: `assertAllowed` before the work,
 * `recordFailure` after a failed attempt, `reset` after a success where the rule says so.
 */
export class StoredLimiter {
  private readonly limiter: RateLimiterDrizzle;

  constructor(
    db: Database,
    readonly spec: LimitSpec,
  ) {
    this.limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: spec.name,
      points: spec.points,
      duration: spec.durationSeconds,
      // Expired rows are removed by the cleanup job, not by a timer in every replica.
      clearExpiredByTimeout: false,
    });
  }

  /** Throws 429 RATE_LIMITED (with Retry-After) when `key` has used up its points. */
  async assertAllowed(key: string): Promise<void> {
    const res = await this.limiter.get(key);
    if (res && res.consumedPoints >= this.spec.points) {
      const retryAfterSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new AppError('RATE_LIMITED', 'Too many attempts; try again later', {
        details: { retryAfterSeconds },
        headers: { 'Retry-After': String(retryAfterSeconds) },
      });
    }
  }

  async recordFailure(key: string): Promise<void> {
    await this.limiter.penalty(key, 1);
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

/** The limiters of 20-api.md §1.6 that exist so far. */
export interface Limiters {
  loginAccount: StoredLimiter;
  loginIp: StoredLimiter;
  currentPassword: StoredLimiter;
  redeemUser: StoredLimiter;
  inviteValidate: StoredLimiter;
  checkoutUser: StoredLimiter;
}

export function createLimiters(db: Database): Limiters {
  return {
    loginAccount: new StoredLimiter(db, {
      name: 'login_user_ip',
      points: 10,
      durationSeconds: 15 * 60,
    }),
    loginIp: new StoredLimiter(db, { name: 'login_ip', points: 100, durationSeconds: 24 * 3600 }),
    currentPassword: new StoredLimiter(db, {
      name: 'current_password',
      points: 10,
      durationSeconds: 15 * 60,
    }),
    redeemUser: new StoredLimiter(db, { name: 'redeem_user', points: 10, durationSeconds: 3600 }),
    inviteValidate: new StoredLimiter(db, {
      name: 'invite_validate_ip',
      points: 20,
      durationSeconds: 10 * 60,
    }),
    checkoutUser: new StoredLimiter(db, {
      name: 'checkout_user',
      points: 10,
      durationSeconds: 10 * 60,
    }),
  };
}
