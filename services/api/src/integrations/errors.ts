import type { UpstreamSystem } from '@usher/contracts';
import { AppError } from '../errors/app-error.js';

/** How an outbound call failed (50-integrations.md §0). */
export type IntegrationErrorKind =
  | 'not_configured'
  | 'timeout'
  | 'network'
  | 'tls'
  | 'http_5xx'
  | 'invalid_response'
  | 'auth'
  | 'rejected'
  | 'not_found'
  | 'http_4xx';

/**
 * Thrown by every adapter. Carries no secret: `upstreamMessage` is sanitised (no keys, no URLs
 * with credentials) and cut to 500 characters.
 */
export class IntegrationError extends Error {
  constructor(
    readonly system: UpstreamSystem,
    readonly operation: string,
    readonly kind: IntegrationErrorKind,
    message: string,
    readonly status?: number,
    readonly upstreamMessage?: string,
  ) {
    super(message);
    this.name = 'IntegrationError';
  }

  /**
   * The API error this failure answers with: not configured → 503, our credential refused → 502
   * UPSTREAM_AUTH_FAILED, a business "no" → 422 UPSTREAM_REJECTED, anything else → 502.
   * `not_found` is the caller's to handle; reaching here it counts as an unusable reply.
   */
  toAppError(): AppError {
    const details = { system: this.system };
    switch (this.kind) {
      case 'not_configured':
        return new AppError('NOT_CONFIGURED', this.message, { details, cause: this });
      case 'auth':
        return new AppError('UPSTREAM_AUTH_FAILED', this.message, { details, cause: this });
      case 'rejected':
        // A mail server refusing a recipient is its answer about that address, not a business
        // "no": mail routes promise only 502/503, so it reads as unavailable, with the reason.
        if (this.system === 'smtp') {
          return new AppError('UPSTREAM_UNAVAILABLE', this.message, { details, cause: this });
        }
        return new AppError('UPSTREAM_REJECTED', this.message, { details, cause: this });
      default:
        return new AppError('UPSTREAM_UNAVAILABLE', this.message, { details, cause: this });
    }
  }
}

/** Whether an error is an adapter's "no such thing" answer (the caller maps it to its 404). */
export function isNotFound(err: unknown): boolean {
  return err instanceof IntegrationError && err.kind === 'not_found';
}

const SECRET_QUERY = /([?&](?:api_key|apikey|token|ApiKey|access_token)=)[^&#\s]*/gi;

/** Removes credentials from URLs and text before they reach a log or an error. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(SECRET_QUERY, '$1[redacted]');
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.slice(0, 500);
}
