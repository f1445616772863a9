import { FormControl, FormGroup, Validators } from '@angular/forms';
import { confirmRepeats } from './password-rules';

describe('confirmRepeats', () => {
  const form = () =>
    new FormGroup(
      {
        next: new FormControl('a-new-password'),
        confirm: new FormControl('', [Validators.required]),
      },
      { validators: [confirmRepeats('next')] },
    );

  it('should put a mismatch on the confirmation beside its own errors, and take it off once it repeats', () => {
    const group = form();
    expect(group.controls.confirm.errors).toEqual({ required: true });

    group.controls.confirm.setValue('something-else');
    expect(group.controls.confirm.errors).toEqual({ mismatch: true });

    group.controls.confirm.setValue('a-new-password');
    expect(group.controls.confirm.errors).toBeNull();
    expect(group.valid).toBe(true);
  });

  it('should follow a change of the repeated field', () => {
    const group = form();
    group.controls.confirm.setValue('a-new-password');
    group.controls.next.setValue('changed');
    expect(group.controls.confirm.errors).toEqual({ mismatch: true });
  });
});
