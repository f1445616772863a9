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
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return `${e.code}: ${String(e.message ?? '')}`.slice(0, 300);
    }
    current = e.cause;
  }
  return err instanceof Error ? err.name : 'unknown error';
}
