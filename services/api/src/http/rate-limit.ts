import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '../db/client.js';
import { rateLimits } from '../db/schema/index.js';
import { AppError } from '../errors/app-error.js';

export interface LimitSpec {
  /** Prefix of the stored key, e.g. `login_user_ip`. */
  name: string;
  /** Failures (or attempts) allowed per window. */
  points: number;
  durationSeconds: number;
}

/**
 * A counter stored in PostgreSQL (`rate_limits`) so every replica sees the same count
 * (00-architecture.md decision 3). There is no separate check-then-record (parallel requests
 * all passed the check before any was recorded, issue 16): `reserve` counts an attempt and
 * enforces the limit in one atomic upsert; `countingFailures` reserves and gives the attempt back
 * unless the work failed in a way that counts; `reset` clears a key where the rule says so.
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

  /**
   * Takes one attempt before the work, atomically (one upsert), so parallel requests cannot all
   * pass a check made before any of them is recorded (issue 16). Throws 429 when the attempt is
   * beyond the limit; `refund` gives it back when the attempt turned out not to count.
   */
  async reserve(key: string): Promise<number> {
    try {
      return (await this.limiter.consume(key, 1)).consumedPoints;
    } catch (err) {
      if (err instanceof RateLimiterRes) throw rateLimited(err.msBeforeNext);
      throw err;
    }
  }

  async refund(key: string): Promise<void> {
    await this.limiter.reward(key, 1);
  }

  /**
   * A failure counter without the read-then-record gap: the attempt is reserved before `work`
   * runs and given back unless it ends in an error `isFailure` counts.
   */
  async countingFailures<T>(
    key: string,
    isFailure: (err: unknown) => boolean,
    work: () => Promise<T>,
  ): Promise<T> {
    await this.reserve(key);
    let failed = false;
    try {
      return await work();
    } catch (err) {
      failed = isFailure(err);
      throw err;
    } finally {
      if (!failed) await this.refund(key);
    }
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

function rateLimited(msBeforeNext: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('RATE_LIMITED', 'Too many attempts; try again later', {
    details: { retryAfterSeconds },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/** Failures an address may have in 24 h before its login attempts are spaced out. */
export const LOGIN_IP_FREE_FAILURES = 20;
/** The longest wait between two login attempts of one address. */
export const LOGIN_IP_MAX_DELAY_SECONDS = 60;

/** Seconds an address must leave between login attempts after `failures` failures in 24 h. */
export function loginIpDelaySeconds(failures: number): number {
  if (failures <= LOGIN_IP_FREE_FAILURES) return 0;
  const step = Math.floor((failures - LOGIN_IP_FREE_FAILURES - 1) / 10);
  return Math.min(LOGIN_IP_MAX_DELAY_SECONDS, 2 ** step);
}

/**
 * The per-IP login limiter as a progressive delay rather than a lock (issue 16, departing from
 * 20-api.md §1.6's 100 failures / 24 h lock, which let one client lock out everyone behind a
 * shared address): failures are counted for 24 h; past LOGIN_IP_FREE_FAILURES the address may
 * make one attempt per `loginIpDelaySeconds(failures)` (1 s, doubling every 10 failures, at most
 * 60 s), and a faster attempt gets 429 with `Retry-After`. Both counters live in `rate_limits`.
 */
export class ProgressiveDelay {
  private readonly failures: RateLimiterDrizzle;
  private readonly gate: RateLimiterDrizzle;

  constructor(db: Database, name: string) {
    const common = { storeClient: db, schema: rateLimits, clearExpiredByTimeout: false };
    this.failures = new RateLimiterDrizzle({
      ...common,
      keyPrefix: name,
      points: Number.MAX_SAFE_INTEGER,
      duration: 24 * 3600,
    });
    this.gate = new RateLimiterDrizzle({
      ...common,
      keyPrefix: `${name}_gate`,
      points: 1,
      duration: 1,
    });
  }

  /** Counts the attempt as a failure up front (atomically) and enforces the spacing. */
  async reserve(key: string): Promise<void> {
    const failures = (await this.failures.consume(key, 1)).consumedPoints;
    const delay = loginIpDelaySeconds(failures);
    if (delay === 0) return;
    try {
      await this.gate.consume(key, 1, { customDuration: delay });
    } catch (err) {
      // Not evaluated, so not a failure.
      await this.failures.reward(key, 1);
      if (err instanceof RateLimiterRes) throw rateLimited(err.msBeforeNext);
      throw err;
    }
  }

  /** The attempt succeeded: it was no failure. */
  async refund(key: string): Promise<void> {
    await this.failures.reward(key, 1);
  }

  async failureCount(key: string): Promise<number> {
    return (await this.failures.get(key))?.consumedPoints ?? 0;
  }
}

/** The limiters of 20-api.md §1.6 that exist so far. */
export interface Limiters {
  loginAccount: StoredLimiter;
  loginIp: ProgressiveDelay;
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
    loginIp: new ProgressiveDelay(db, 'login_ip'),
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
