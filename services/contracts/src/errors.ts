import { z } from 'zod';

/**
 * Every error code the API can answer with, and the HTTP status it travels with.
 * One table so the API's error handler, the OpenAPI document and the web's translations agree.
 * Later capabilities add their codes here (20-api.md lists them per route).
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  WEBHOOK_SIGNATURE_INVALID: 400,
  WEBHOOK_PAYLOAD_INVALID: 400,
  SETTING_INVALID: 400,
  UNAUTHENTICATED: 401,
  TOKEN_INVALID: 401,
  TOKEN_REVOKED: 401,
  INTERNAL_AUTH_FAILED: 401,
  INVALID_CREDENTIALS: 401,
  WEBHOOK_TOKEN_INVALID: 401,
  FORBIDDEN: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  NOT_AN_APPROVER: 403,
  ACCOUNT_DISABLED: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  MEDIA_USER_NOT_FOUND: 404,
  REDEEM_CODE_NOT_FOUND: 404,
  MESSENGER_NOT_BOUND: 404,
  REQUEST_NOT_FOUND: 404,
  METADATA_NOT_FOUND: 404,
  PENDING_ACTION_NOT_FOUND: 404,
  CANDIDATE_NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  JOB_RUN_NOT_FOUND: 404,
  SETTING_GROUP_NOT_FOUND: 404,
  SETTING_TEST_UNSUPPORTED: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  JOB_RUNNING: 409,
  REDEEM_CODE_ALREADY_USED: 409,
  REQUEST_EXISTS: 409,
  ALREADY_IN_LIBRARY: 409,
  REQUEST_STATE_CHANGED: 409,
  NOT_REDISPATCHABLE: 409,
  MEDIA_USER_ALREADY_BOUND: 409,
  USERNAME_TAKEN: 409,
  EMAIL_TAKEN: 409,
  MESSENGER_ALREADY_BOUND: 409,
  MESSENGER_ID_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CURRENT_PASSWORD_INVALID: 422,
  PASSWORD_UNCHANGED: 422,
  REDEEM_CODE_INVALID: 422,
  ACCOUNT_NEVER_EXPIRES: 422,
  ACCOUNT_NOT_RENEWABLE: 422,
  MAX_USES_BELOW_USED: 422,
  MEDIA_ACCOUNT_UNLINKED: 422,
  MEDIA_ACCESS_REQUIRED: 422,
  REQUEST_LIMIT_REACHED: 422,
  NOT_IN_LIBRARY: 422,
  SEASON_REQUIRED: 422,
  LAST_ADMIN: 422,
  CANNOT_MODIFY_SELF: 422,
  UPSTREAM_REJECTED: 422,
  REGISTRATION_CODE_REQUIRED: 422,
  EMAIL_DOMAIN_NOT_ALLOWED: 422,
  EMAIL_CODE_REQUIRED: 422,
  EMAIL_CODE_INVALID: 422,
  EMAIL_VERIFICATION_OFF: 422,
  EMAIL_UNCHANGED: 422,
  BIND_CODE_INVALID: 422,
  SETTING_READ_ONLY: 422,
  SETTING_UNKNOWN_KEY: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_AUTH_FAILED: 502,
  NOT_CONFIGURED: 503,
  NOT_SUPPORTED: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
export const errorCodeSchema = z.enum(ERROR_CODES);

/** Which external system an upstream or configuration error is about (20-api.md §1.5). */
export const UPSTREAM_SYSTEMS = [
  'media_server',
  'webhook',
  'tmdb',
  'automation',
  'smtp',
  'stripe',
  'playback_reporting',
  'bot',
] as const;
export type UpstreamSystem = (typeof UPSTREAM_SYSTEMS)[number];

/** One zod issue as the API reports it in `details` of VALIDATION_FAILED. */
export const validationIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** The one error body every route answers with: `{"error":{code,message,requestId,details?}}`. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: errorCodeSchema,
      message: z.string(),
      requestId: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBodySchema>;
