import { Pipe, type PipeTransform, inject } from '@angular/core';
import type { AbstractControl, ValidationErrors } from '@angular/forms';
import { TranslocoService } from '@jsverse/transloco';

/** A translation key and its params. */
export interface FieldMessage {
  key: string;
  params?: Record<string, unknown>;
}

/** What a field says for an error, where it differs from the defaults (a pattern's meaning). */
export type FieldMessages = Partial<Record<string, string | FieldMessage>> & {
  /** Said for every error without a message of its own here (a field that says one thing). */
  invalid?: string | FieldMessage;
};

/** The order errors are told in: the API's refusal first, then the validators. */
const ORDER = ['api', 'required', 'email', 'minlength', 'maxlength', 'min', 'max', 'pattern'];

const DEFAULTS: Record<string, (error: unknown) => FieldMessage> = {
  required: () => ({ key: 'validation.required' }),
  email: () => ({ key: 'validation.email' }),
  minlength: (error) => ({
    key: 'validation.minLength',
    params: { min: (error as { requiredLength: number }).requiredLength },
  }),
  maxlength: () => ({ key: 'validation.tooLong' }),
  mismatch: () => ({ key: 'account.password.mismatch' }),
};

/**
 * The one message under a form field (60-web.md §4.1 "Errors"): an API refusal put on the field
 * (`{api: message}`, already worded) as it is, else the first failed validator as a translation
 * key. A string is the API's own text; null when the field has no error to tell.
 */
export function fieldMessage(
  errors: ValidationErrors | null,
  messages: FieldMessages = {},
): FieldMessage | string | null {
  if (!errors) return null;
  if (typeof errors['api'] === 'string') return errors['api'];
  const names = [
    ...ORDER.filter((name) => name in errors),
    ...Object.keys(errors).filter((name) => !ORDER.includes(name)),
  ];
  for (const name of names) {
    const own = messages[name] ?? messages.invalid;
    if (own) return typeof own === 'string' ? { key: own } : own;
    const fallback = DEFAULTS[name];
    if (fallback) return fallback(errors[name]);
  }
  return null;
}

/**
 * `{{ form.controls.code | fieldError: { pattern: 'validation.sixDigits' } }}` inside a
 * `<mat-error>`: the field's message in the active language. Impure, as a control's errors change
 * without the control changing.
 */
@Pipe({ name: 'fieldError', pure: false })
export class FieldErrorPipe implements PipeTransform {
  private readonly transloco = inject(TranslocoService);

  transform(control: AbstractControl, messages?: FieldMessages): string {
    const message = fieldMessage(control.errors, messages);
    if (message === null) return '';
    return typeof message === 'string'
      ? message
      : this.transloco.translate(message.key, message.params ?? {});
  }
}
