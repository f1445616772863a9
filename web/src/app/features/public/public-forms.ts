import type { AbstractControl, ValidationErrors, ValidatorFn } from '@angular/forms';
import { ApiError } from '../../core/api/api-error';

/** Group validator: `confirm` must repeat `password`; the error sits on `confirm`. */
export const passwordsMatch: ValidatorFn = (group: AbstractControl): ValidationErrors | null => {
  const password = group.get('password');
  const confirm = group.get('confirm');
  if (!password || !confirm) return null;
  const mismatch = confirm.value !== '' && confirm.value !== password.value;
  const others = { ...confirm.errors };
  delete others['mismatch'];
  const rest = Object.keys(others).length ? others : null;
  confirm.setErrors(mismatch ? { ...rest, mismatch: true } : rest);
  return null;
};

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
