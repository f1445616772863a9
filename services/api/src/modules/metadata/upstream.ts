import { IntegrationError } from '../../integrations/errors.js';

/**
 * Runs an adapter call and turns its `IntegrationError` into the API error it answers with
 * (50-integrations.md §0). With `passNotFound`, a `not_found` answer stays an IntegrationError
 * for the caller to map to its own 404.
 */
export async function upstream<T>(
  call: () => Promise<T>,
  options: { passNotFound?: boolean } = {},
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    // Adapters throw IntegrationError for every upstream failure; anything else is a bug.
    if (!(err instanceof IntegrationError)) throw err;
    if (err.kind === 'not_found' && options.passNotFound) throw err;
    throw err.toAppError();
  }
}

/** Whether an error is an adapter's "no such thing" answer. */
export function isNotFound(err: unknown): boolean {
  return err instanceof IntegrationError && err.kind === 'not_found';
}
