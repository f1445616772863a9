import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatButton } from '@angular/material/button';
import {
  MatDialogActions,
  MatDialogClose,
  MatDialogContent,
  MatDialogTitle,
} from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import type { ErrorText } from '../core/api/error-text';
import type { Action } from './action';
import { FormError } from './form-error';
import { SubmitButton } from './submit-button';

/**
 * The frame of every form dialog: the title, the fields (projected), the action's error line,
 * then Cancel and the submit button with its spinner. The dialog's own template keeps the
 * `<form [formGroup] (ngSubmit)>` around it, so the fields bind to the form as usual and the
 * submit button here submits it. Content marked `dialogActions` stands before Cancel.
 */
@Component({
  selector: 'app-dialog-shell',
  imports: [
    MatButton,
    MatDialogActions,
    MatDialogClose,
    MatDialogContent,
    MatDialogTitle,
    TranslocoDirective,
    FormError,
    SubmitButton,
  ],
  template: `
    <ng-container *transloco="let t">
      <h2 mat-dialog-title>{{ title() }}</h2>
      <mat-dialog-content class="fields">
        <ng-content />
        <app-form-error
          [error]="error()"
          [showReference]="showReference()"
          [testId]="errorTestId()"
        />
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <ng-content select="[dialogActions]" />
        <button mat-button type="button" [mat-dialog-close]="cancelResult()" [disabled]="busy()">
          {{ t('dialogs.cancel') }}
        </button>
        <app-submit-button [busy]="busy()" [disabled]="submitDisabled()" [testId]="submitTestId()">
          {{ submitLabel() }}
        </app-submit-button>
      </mat-dialog-actions>
    </ng-container>
  `,
  styles: `
    .fields {
      display: flex;
      flex-direction: column;
      gap: 4px;
    }
    app-form-error {
      --form-error-margin: 8px 0 0;
    }
    // The gap Material puts between dialog action buttons.
    app-submit-button {
      margin-inline-start: 8px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class DialogShell {
  /** Already translated. */
  readonly title = input.required<string>();
  /** Already translated: what the submit button says ("Save", "Create"). */
  readonly submitLabel = input.required<string>();
  readonly submitTestId = input<string>();
  /** The dialog's action: its busy flag and error line. */
  readonly action = input<Action>();
  /** Disabled for a reason other than running (nothing to send yet). */
  readonly submitDisabled = input(false);
  /** What the dialog closes with on Cancel (false: nothing changed). */
  readonly cancelResult = input<unknown>(false);
  /** Whether the error line shows "Reference: …" (off where the reference means nothing to the admin). */
  readonly showReference = input(true);
  readonly errorTestId = input<string>();

  protected readonly busy = computed(() => this.action()?.busy() ?? false);
  protected readonly error = computed<ErrorText | null>(() => this.action()?.error() ?? null);
}
