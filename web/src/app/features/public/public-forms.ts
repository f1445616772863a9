import type { AbstractControl, ValidatorFn } from '@angular/forms';
import { ApiError } from '../../core/api/api-error';
import { confirmRepeats } from '../../shared/password-rules';

/** Group validator: `confirm` must repeat `password`; the error sits on `confirm`. */
export const passwordsMatch: ValidatorFn = confirmRepeats('password');

/**
 * Puts an API refusal on its field: the control turns invalid with `{api: message}` until the
 * value changes (its validators then run again and drop it).
 */
export function showOnField(control: AbstractControl, message: string): void {
  control.setErrors({ ...control.errors, api: message });
  control.markAsTouched();
}

/** `details.reason` of a 422 REDEEM_CODE_INVALID (`not_found`, `expired`, `exhausted`). */
export function codeReason(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? reason : null;
}

/** The redeem-code refusals this page words itself (20-api.md §4 `details.reason`). */
export const CODE_REASONS = ['not_found', 'expired', 'exhausted'] as const;

/** Translation key for a refused code: a known reason, else the error code's message. */
export function codeErrorKey(error: ApiError): string {
  const reason = codeReason(error);
  return reason && (CODE_REASONS as readonly string[]).includes(reason)
    ? `register.codeReason.${reason}`
    : `errors.${error.code}`;
}
