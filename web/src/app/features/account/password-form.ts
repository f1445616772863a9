import { type AbstractControl, type ValidationErrors, type ValidatorFn } from '@angular/forms';
import { confirmRepeats } from '../../shared/password-rules';

/** Group validator: `confirm` must repeat `newPassword`; the error sits on `confirm`. */
export const confirmMatches: ValidatorFn = confirmRepeats('newPassword');

/** Group validator: the new password must differ from the current one (as the API checks). */
export const differsFromCurrent: ValidatorFn = (
  group: AbstractControl,
): ValidationErrors | null => {
  const current = group.get('currentPassword')?.value as string | undefined;
  const next = group.get('newPassword')?.value as string | undefined;
  return current && next && current === next ? { unchanged: true } : null;
};
