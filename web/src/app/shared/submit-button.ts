import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatProgressSpinner } from '@angular/material/progress-spinner';

/**
 * A button whose action runs in place (60-web.md §1 "Loading"): while `busy`, a spinner sits in
 * front of the label and the button is disabled, so the action cannot be sent twice. A submit
 * button by default; `type="button"` with a `(click)` on the host for other actions. The host
 * takes the size its parent gives it (`min-height`, `flex`), the button fills it.
 */
@Component({
  selector: 'app-submit-button',
  imports: [MatButton, MatProgressSpinner],
  template: `
    <button
      [matButton]="appearance()"
      [type]="type()"
      [disabled]="busy() || disabled()"
      [attr.data-testid]="testId() ?? null"
    >
      @if (busy()) {
        <mat-progress-spinner mode="indeterminate" diameter="18" />
      }
      <ng-content />
    </button>
  `,
  styles: `
    :host {
      display: inline-flex;
      flex-direction: column;
    }
    button {
      flex: 1 1 auto;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SubmitButton {
  readonly busy = input(false);
  /** Disabled for a reason other than running (nothing to send yet, a countdown). */
  readonly disabled = input(false);
  readonly type = input<'submit' | 'button'>('submit');
  readonly appearance = input<'filled' | 'outlined'>('filled');
  readonly testId = input<string>();
}
