/**
 * `@usher/contracts/retry`: the one retry rule of the API's adapters and the bot's API client —
 * a GET is tried at most twice, a write once (it may have happened). No import at all.
 */

export interface RetryOptions<T> {
  /** Whether this outcome is worth a second try (a network failure, a 502/503/504, …). */
  shouldRetry: (outcome: T) => boolean;
  /** Pause before the second try, in ms; 0 tries again at once. */
  delayMs?: number;
}

/** HTTP methods that may be tried again: reading twice changes nothing. */
export function isRetryableMethod(method: string): boolean {
  return method.toUpperCase() === 'GET';
}

/**
 * Runs `attempt` once, and for a GET once more when `shouldRetry` says so; returns the last
 * outcome. Failures are outcomes here (return them, do not throw), so the caller decides what a
 * retryable failure is and what it finally answers.
 */
export async function retryingGet<T>(
  method: string,
  attempt: () => Promise<T>,
  options: RetryOptions<T>,
): Promise<T> {
  const first = await attempt();
  if (!isRetryableMethod(method) || !options.shouldRetry(first)) return first;
  if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  return attempt();
}
