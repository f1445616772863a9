import type { HttpErrorResponse } from '@angular/common/http';

/** Client-side code for a request that never got an HTTP answer (offline, DNS, aborted). */
export const NETWORK_ERROR = 'NETWORK_ERROR';
/** Client-side code for an answer that was not the API's error body (a proxy page, say). */
export const UNEXPECTED_REPLY = 'UNEXPECTED_REPLY';

/** Every failed API call surfaces as this (60-web.md §1, interceptor 3). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The API's UPPER_SNAKE code, or one of the client-side codes above. */
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorBodyShape {
  error: { code: string; message: string; requestId: string; details?: unknown };
}

/**
 * Whether `body` is the shared error body. Checked by hand rather than with the contract's zod
 * schema so production bundles do not carry zod for this one check.
 */
function isErrorBody(body: unknown): body is ErrorBodyShape {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, requestId } = error as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && typeof requestId === 'string';
}

/** Maps Angular's failure to an `ApiError`; `sentRequestId` is used when the body has none. */
export function toApiError(response: HttpErrorResponse, sentRequestId: string | null): ApiError {
  const headerId = response.headers?.get('X-Request-Id') ?? null;
  if (isErrorBody(response.error)) {
    const { code, message, requestId, details } = response.error.error;
    return new ApiError(response.status, code, message, requestId, details);
  }
  const requestId = headerId ?? sentRequestId;
  if (response.status === 0) {
    return new ApiError(0, NETWORK_ERROR, response.message, requestId, undefined);
  }
  return new ApiError(response.status, UNEXPECTED_REPLY, response.message, requestId, undefined);
}

/** `details.retryAfterSeconds` of a 429, when present. */
export function retryAfterSeconds(error: ApiError): number | null {
  const details = error.details as { retryAfterSeconds?: unknown } | undefined;
  const value = details?.retryAfterSeconds;
  return typeof value === 'number' && value > 0 ? Math.ceil(value) : null;
}

/** `details.system` of an upstream or configuration error, when present. */
export function errorSystem(error: ApiError): string | null {
  const details = error.details as { system?: unknown } | undefined;
  return typeof details?.system === 'string' ? details.system : null;
}
