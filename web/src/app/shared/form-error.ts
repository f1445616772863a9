import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import type { ErrorText } from '../core/api/error-text';

/**
 * The error line of a form, card or dialog (60-web.md §1 "How the app treats errors"): the
 * message and, when the API gave one, "Reference: requestId". The live region is always in the
 * page, so a new error is announced, and takes no room while it is empty. The parent sets the
 * spacing around it with `--form-error-margin`.
 */
@Component({
  selector: 'app-form-error',
  imports: [MatIcon],
  template: `
    <div class="slot" [attr.role]="alert() ? 'alert' : null">
      @if (text(); as text) {
        <p class="form-error" [attr.data-testid]="testId() ?? null">
          @if (icon()) {
            <mat-icon aria-hidden="true" svgIcon="error" />
          }
          <span
            >{{ text }}
            @if (reference(); as reference) {
              <span class="reference">{{ reference }}</span>
            }
          </span>
        </p>
      }
    </div>
  `,
  styleUrl: './form-error.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class FormError {
  readonly error = input<ErrorText | null | undefined>(null);
  /** Shown instead of the error's own message (a live countdown, a page's own wording). */
  readonly message = input<string | null | undefined>(null);
  /** Whether the "Reference: …" line is shown under the message. */
  readonly showReference = input(true);
  /** An error icon in front of the message. */
  readonly icon = input(false);
  /** Off where the error sits in a region that is already live (test results). */
  readonly alert = input(true);
  readonly testId = input<string>();

  protected readonly text = computed(() => this.message() || this.error()?.message || null);
  protected readonly reference = computed(() =>
    this.showReference() ? (this.error()?.reference ?? null) : null,
  );
}
