import { z } from 'zod';
import { safeString } from './common.js';
import { ERROR_CODES } from './values.js';

export const errorCodeSchema = z.enum(ERROR_CODES);

/** One zod issue as the API reports it in `details` of VALIDATION_FAILED. */
export const validationIssueSchema = z.object({
  path: safeString(),
  message: safeString(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** The one error body every route answers with: `{"error":{code,message,requestId,details?}}`. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: errorCodeSchema,
      message: safeString(),
      requestId: safeString(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBodySchema>;
