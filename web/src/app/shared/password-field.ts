import { ChangeDetectionStrategy, Component, input, model } from '@angular/core';
import { type FormControl, ReactiveFormsModule } from '@angular/forms';
import { MatSuffix } from '@angular/material/form-field';
import { TranslocoDirective } from '@jsverse/transloco';
import { FieldErrorPipe } from './field-error';
import { FIELD_AS_IF_INLINE, TEXT_FIELD } from './form-field';
import { PasswordToggle } from './password-toggle';

/**
 * One password field of a form (the password card, sign-up, the password reset): its label, the
 * browser's autofill hint, an optional hint line and the control's error. `visible` shows the
 * text; one field of a form carries the show/hide toggle (`toggle`) and the others follow it.
 */
@Component({
  selector: 'app-password-field',
  imports: [
    ReactiveFormsModule,
    TranslocoDirective,
    FieldErrorPipe,
    MatSuffix,
    PasswordToggle,
    ...TEXT_FIELD,
  ],
  template: `
    <mat-form-field appearance="outline" *transloco="let t">
      <mat-label>{{ t(labelKey()) }}</mat-label>
      <input
        matInput
        [formControl]="control()"
        [attr.autocomplete]="autocomplete()"
        [attr.data-testid]="testId()"
        [type]="visible() ? 'text' : 'password'"
      />
      @if (toggle()) {
        <app-password-toggle matSuffix [(visible)]="visible" />
      }
      @if (hint()) {
        <mat-hint>{{ hint() }}</mat-hint>
      }
      <mat-error>{{ control() | fieldError }}</mat-error>
    </mat-form-field>
  `,
  styles: FIELD_AS_IF_INLINE,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PasswordField {
  readonly control = input.required<FormControl<string>>();
  /** Translation key of the label. */
  readonly labelKey = input.required<string>();
  readonly testId = input.required<string>();
  readonly autocomplete = input<'current-password' | 'new-password'>('new-password');
  /** Already translated; none when null. */
  readonly hint = input<string | null>(null);
  /** Whether this field carries the show/hide button. */
  readonly toggle = input(false);
  readonly visible = model(false);
}
