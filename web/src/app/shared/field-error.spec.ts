import { TestBed } from '@angular/core/testing';
import { FormControl, Validators } from '@angular/forms';
import { provideTestI18n } from '../../testing/providers';
import { FieldErrorPipe, fieldMessage } from './field-error';

/** The one message under a form field (60-web.md §4.1 "Errors"). */
describe('fieldMessage', () => {
  it('should say nothing for a field without errors', () => {
    expect(fieldMessage(null)).toBeNull();
  });

  it("should put the API's own words first", () => {
    expect(fieldMessage({ pattern: true, api: 'That code has expired.' })).toBe(
      'That code has expired.',
    );
  });

  it('should tell the validators in a fixed order, with their bounds', () => {
    expect(
      fieldMessage({ minlength: { requiredLength: 8, actualLength: 3 }, required: true }),
    ).toEqual({
      key: 'validation.required',
    });
    expect(fieldMessage({ minlength: { requiredLength: 8, actualLength: 3 } })).toEqual({
      key: 'validation.minLength',
      params: { min: 8 },
    });
    expect(fieldMessage({ maxlength: { requiredLength: 128 }, email: true })).toEqual({
      key: 'validation.email',
    });
    expect(fieldMessage({ mismatch: true })).toEqual({ key: 'account.password.mismatch' });
  });

  it("should use the field's own words where it gives them", () => {
    expect(
      fieldMessage(
        { pattern: { requiredPattern: '^\\d{6}$' } },
        { pattern: 'validation.sixDigits' },
      ),
    ).toEqual({
      key: 'validation.sixDigits',
    });
    const range = { key: 'validation.range', params: { min: 1, max: 100 } };
    expect(fieldMessage({ required: true }, { invalid: range })).toEqual(range);
    expect(fieldMessage({ max: { max: 100 } }, { invalid: range })).toEqual(range);
    expect(
      fieldMessage(
        { belowUsed: true },
        { belowUsed: 'errors.MAX_USES_BELOW_USED', invalid: range },
      ),
    ).toEqual({ key: 'errors.MAX_USES_BELOW_USED' });
  });

  it('should say nothing for an error it has no words for', () => {
    expect(fieldMessage({ pattern: true })).toBeNull();
  });
});

describe('FieldErrorPipe', () => {
  function pipe(): FieldErrorPipe {
    TestBed.configureTestingModule({ providers: provideTestI18n() });
    return TestBed.runInInjectionContext(() => new FieldErrorPipe());
  }

  it('should follow the control as its errors change, in the active language', () => {
    const fieldError = pipe();
    const control = new FormControl('', [Validators.required, Validators.minLength(8)]);
    expect(fieldError.transform(control)).toBe('Required');
    control.setValue('short');
    expect(fieldError.transform(control)).toBe('At least 8 characters');
    control.setErrors({ api: 'That username is already taken.' });
    expect(fieldError.transform(control)).toBe('That username is already taken.');
    control.setValue('long enough');
    expect(fieldError.transform(control)).toBe('');
  });
});
