import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time comparison of a presented secret with the expected one. Both sides are hashed
 * first, so neither the content nor the length leaks through timing (40-bot.md §2).
 */
export function secretMatches(presented: string | undefined | null, expected: string): boolean {
  if (presented === undefined || presented === null) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
