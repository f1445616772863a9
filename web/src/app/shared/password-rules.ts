import type { AbstractControl, ValidationErrors, ValidatorFn } from '@angular/forms';

/**
 * Group validator: the control `confirm` must repeat the control named `field` (the new password);
 * the error (`mismatch`) sits on `confirm`, beside its own validators' errors. One rule for the
 * password card, sign-up and the password reset.
 */
export function confirmRepeats(field: string): ValidatorFn {
  return (group: AbstractControl): ValidationErrors | null => {
    const password = group.get(field);
    const confirm = group.get('confirm');
    if (!password || !confirm) return null;
    const mismatch = confirm.value !== '' && confirm.value !== password.value;
    const others = { ...confirm.errors };
    delete others['mismatch'];
    const rest = Object.keys(others).length ? others : null;
    confirm.setErrors(mismatch ? { ...rest, mismatch: true } : rest);
    return null;
  };
}
