import { type AbstractControl, type ValidationErrors, type ValidatorFn } from '@angular/forms';

/** Group validator: `confirm` must repeat `newPassword`; the error sits on `confirm`. */
export const confirmMatches: ValidatorFn = (group: AbstractControl): ValidationErrors | null => {
  const next = group.get('newPassword');
  const confirm = group.get('confirm');
  if (!next || !confirm) return null;
  const mismatch = confirm.value !== '' && confirm.value !== next.value;
  const others = { ...confirm.errors };
  delete others['mismatch'];
  const rest = Object.keys(others).length ? others : null;
  confirm.setErrors(mismatch ? { ...rest, mismatch: true } : rest);
  return null;
};

/** Group validator: the new password must differ from the current one (as the API checks). */
export const differsFromCurrent: ValidatorFn = (
  group: AbstractControl,
): ValidationErrors | null => {
  const current = group.get('currentPassword')?.value as string | undefined;
  const next = group.get('newPassword')?.value as string | undefined;
  return current && next && current === next ? { unchanged: true } : null;
};
