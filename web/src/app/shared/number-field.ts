import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { type FormControl, ReactiveFormsModule } from '@angular/forms';
import { TranslocoDirective } from '@jsverse/transloco';
import { TEXT_FIELD } from './form-field';

/**
 * A whole-number field of a form dialog (days, a count, uses) with its range as the error: the
 * same outlined field every dialog wrote out. `labelKey` and `hintKey` are translation keys; the
 * control's own validators decide what is valid.
 */
@Component({
  selector: 'app-number-field',
  imports: [ReactiveFormsModule, TranslocoDirective, ...TEXT_FIELD],
  template: `
    <mat-form-field appearance="outline" *transloco="let t">
      <mat-label>{{ t(labelKey()) }}</mat-label>
      <input
        matInput
        type="number"
        [min]="min()"
        [max]="max()"
        [formControl]="control()"
        [attr.data-testid]="testId()"
      />
      @if (hintKey(); as hint) {
        <mat-hint>{{ t(hint) }}</mat-hint>
      }
      <mat-error>{{ t('validation.range', { min: min(), max: max() }) }}</mat-error>
    </mat-form-field>
  `,
  styles: `
    :host {
      display: contents;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class NumberField {
  readonly control = input.required<FormControl<number>>();
  readonly labelKey = input.required<string>();
  readonly min = input(1);
  readonly max = input.required<number>();
  readonly testId = input.required<string>();
  readonly hintKey = input<string>();
}
