// The API's one error class, below every floor that throws it (modules, settings, adapters,
// the scheduler) and the HTTP layer that answers with it (`http/errors.ts`'s `handleError`).
import { ERROR_STATUS, type ErrorCode, type UpstreamSystem } from '@usher/contracts';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The only error services throw on purpose. Its code decides the HTTP status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: ContentfulStatusCode;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      details?: unknown;
      headers?: Record<string, string>;
      cause?: unknown;
      /**
       * Overrides the code's usual status where the spec answers one code differently on one
       * route (e.g. `MESSENGER_NOT_BOUND`: 404 on the bot's routes, 422 on `DELETE /me/messenger`).
       */
      status?: ContentfulStatusCode;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? (ERROR_STATUS[code] as ContentfulStatusCode);
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  static upstream(code: ErrorCode, system: UpstreamSystem, message: string): AppError {
    return new AppError(code, message, { details: { system } });
  }
}

/**
 * An error that knows the API error it answers with — the adapters' `IntegrationError`
 * (50-integrations.md §0). Checked by shape rather than `instanceof`, so this floor does not import
 * the integrations (which import `AppError`).
 */
export interface ConvertsToAppError {
  toAppError(): AppError;
}

function convertsToAppError(err: unknown): err is ConvertsToAppError {
  return (
    err instanceof Error && typeof (err as Partial<ConvertsToAppError>).toAppError === 'function'
  );
}

/**
 * The API error a thrown error answers with: itself, or an adapter failure's mapping (§1.5:
 * 503 NOT_CONFIGURED, 502 UPSTREAM_*, 422 UPSTREAM_REJECTED, with `details.system`). Null for
 * anything else, which is a bug.
 */
export function asAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (convertsToAppError(err)) return err.toAppError();
  return null;
}
