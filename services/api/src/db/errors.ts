/**
 * The constraint a unique violation (SQLSTATE 23505) names, or null for any other error. Both
 * drivers (node-postgres, PGlite) put `code` and `constraint` on their error; drizzle may wrap it
 * as the `cause`, so the chain is walked.
 */
export function uniqueViolation(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (e.code === '23505') return typeof e.constraint === 'string' ? e.constraint : '';
    current = e.cause;
  }
  return null;
}

/** Whether an error is a unique violation (23505) of one named index or constraint. */
export function isUniqueViolation(err: unknown, index: string): boolean {
  const constraint = uniqueViolation(err);
  if (constraint === null) return false;
  // PGlite sometimes leaves `constraint` empty; its message still names the index.
  return constraint === index || (constraint === '' && messageNames(err, index));
}

function messageNames(err: unknown, index: string): boolean {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { message?: unknown; cause?: unknown };
    if (typeof e.message === 'string' && e.message.includes(index)) return true;
    current = e.cause;
  }
  return false;
}

/**
 * The driver's own message (with its SQLSTATE) for logs. drizzle's wrapper message repeats the
 * query and its parameters — password hashes included — so it must never be logged as is.
 */
export function driverMessage(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && /^([0-9A-Z]{5}|E[A-Z]{3,})$/.test(e.code)) {
      return `${e.code}: ${String(e.message ?? '')}`.slice(0, 300);
    }
    current = e.cause;
  }
  return err instanceof Error ? err.name : 'unknown error';
}

/** Node socket errors of a connection that could not be made or was lost. */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a server going away or refusing connections: class 08 (connection exception),
 * 57P01–57P03 (admin/crash shutdown, cannot connect now), 57P04 (database dropped), 57P05 (idle
 * session timeout), 3D000 (the database does not exist, e.g. during a restore), 53300 (too many
 * connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-5]|3D000|53300)$/;
/**
 * 55000 (object not in prerequisite state) is mostly a statement's own fault, except for
 * "database … is not currently accepting connections" (datallowconn off, maintenance).
 */
const NOT_ACCEPTING = /not currently accepting connections/;
/** node-postgres and pg-pool say these in plain text, without a code. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Connection ended unexpectedly',
  'connect ECONNREFUSED',
  'terminating connection due to administrator command',
];

/**
 * Whether an error means the database cannot be reached right now (outage, restart, pool
 * exhausted), as opposed to a bug or a refused statement. Answered 503 DATABASE_UNAVAILABLE.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === 'string') {
      if (CONNECTION_ERRNOS.has(e.code) || UNAVAILABLE_SQLSTATE.test(e.code)) return true;
      if (e.code === '55000' && typeof e.message === 'string' && NOT_ACCEPTING.test(e.message)) {
        return true;
      }
    }
    if (typeof e.message === 'string') {
      const message = e.message;
      // drizzle's wrapper repeats the SQL text, which may contain any words: only its cause counts.
      if (
        !message.startsWith('Failed query:') &&
        CONNECTION_MESSAGES.some((m) => message.includes(m))
      ) {
        return true;
      }
    }
    // A refused connection to a dual-stack host arrives as an AggregateError of both attempts.
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner)))
      return true;
    current = e.cause;
  }
  return false;
}
