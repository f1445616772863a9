import type { ErrorBody, ErrorCode } from '@usher/contracts';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ZodError } from 'zod';
import { driverMessage, isDatabaseUnavailable } from '../db/errors.js';
import { AppError, asAppError } from '../errors/app-error.js';
import { requestLogger, type AppEnv } from './context.js';

/** Seconds a client is asked to wait while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Messages for codes raised by the HTTP layer itself. */
const GENERIC_MESSAGES: Partial<Record<ErrorCode, string>> = {
  NOT_FOUND: 'No such route',
  INTERNAL_ERROR:
    'Something went wrong on our side; the request id helps the operator find out what',
  PAYLOAD_TOO_LARGE: 'The request body is too large',
  DATABASE_UNAVAILABLE: 'The database cannot be reached right now; try again shortly',
  VALIDATION_FAILED: 'The request is not valid',
};

export function errorBody(
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: unknown,
): ErrorBody {
  return {
    error: { code, message, requestId, ...(details === undefined ? {} : { details }) },
  };
}

/** zod issues → `[{path, message}]`, the `details` of VALIDATION_FAILED. */
export function zodDetails(error: ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/**
 * The one place that writes an error body. 5xx and unknown errors are logged with their cause
 * and answered with a generic message; 4xx are expected and not logged as errors.
 */
export function handleError(err: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get('requestId') ?? 'unknown';
  const logger = requestLogger(c);
  let appError: AppError;
  const known = asAppError(err);
  if (known) {
    appError = known;
  } else if (err instanceof ZodError) {
    appError = new AppError('VALIDATION_FAILED', GENERIC_MESSAGES.VALIDATION_FAILED!, {
      details: zodDetails(err),
    });
  } else if (err instanceof HTTPException && err.status < 500) {
    // Raised by hono itself: malformed JSON, body limit, etc.
    const code: ErrorCode = err.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED';
    appError = new AppError(code, err.message || GENERIC_MESSAGES[code]!);
  } else if (isDatabaseUnavailable(err)) {
    // An outage, not a bug: one short line (no stack, no query), and the client retries.
    logger?.warn({ dbError: driverMessage(err) }, 'database unavailable');
    appError = new AppError('DATABASE_UNAVAILABLE', GENERIC_MESSAGES.DATABASE_UNAVAILABLE!, {
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      details: { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
    });
  } else {
    logger?.error({ err }, 'unhandled error');
    appError = new AppError('INTERNAL_ERROR', GENERIC_MESSAGES.INTERNAL_ERROR!);
  }
  if (
    appError.status >= 500 &&
    appError.code !== 'INTERNAL_ERROR' &&
    appError.code !== 'DATABASE_UNAVAILABLE'
  ) {
    logger?.error({ err: appError, cause: appError.cause }, appError.message);
  }
  for (const [name, value] of Object.entries(appError.headers)) c.header(name, value);
  return c.json(
    errorBody(appError.code, appError.message, requestId, appError.details),
    appError.status,
  );
}

export function notFound(c: Context<AppEnv>): Response {
  return c.json(errorBody('NOT_FOUND', GENERIC_MESSAGES.NOT_FOUND!, c.get('requestId')), 404);
}
