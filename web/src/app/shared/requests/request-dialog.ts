import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MAT_DIALOG_DATA, type MatDialog, MatDialogRef } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import { firstValueFrom } from 'rxjs';
import { TitleBackdrop, type TitleArt } from './title-backdrop';
import { TEXT_FIELD } from '../form-field';
import { DIALOG_PARTS } from '../dialog-parts';

/** What a request dialog says; texts are translation keys, `detail` is shown as given. */
export interface RequestDialogData {
  titleKey: string;
  messageKey?: string;
  params?: Record<string, unknown>;
  /** Server-made text shown verbatim (the library summary of ALREADY_IN_LIBRARY). */
  detail?: string;
  /** When set, a required text of 1–500 characters is asked for (reject reason, resubmit note). */
  inputLabelKey?: string;
  confirmKey: string;
  destructive?: boolean;
  /** The request's title art: its backdrop band tops the dialog when it has one (issue 14). */
  art?: TitleArt;
}

const MAX_TEXT = 500;

/** Confirmations and one-field prompts of the request pages. */
@Component({
  selector: 'app-request-dialog',
  imports: [MatButton, TranslocoDirective, TitleBackdrop, ...TEXT_FIELD, ...DIALOG_PARTS],
  template: `
    <ng-container *transloco="let t">
      @if (data.art; as art) {
        <app-title-backdrop [art]="art" />
      }
      <h2 mat-dialog-title>{{ t(data.titleKey, data.params ?? {}) }}</h2>
      <mat-dialog-content>
        @if (data.messageKey) {
          <p>{{ t(data.messageKey, data.params ?? {}) }}</p>
        }
        @if (data.detail) {
          <p class="detail" data-testid="dialog-detail">{{ data.detail }}</p>
        }
        @if (data.inputLabelKey) {
          <mat-form-field appearance="outline" class="text">
            <mat-label>{{ t(data.inputLabelKey) }}</mat-label>
            <textarea
              matInput
              rows="3"
              required
              [attr.maxlength]="max"
              [value]="text()"
              (input)="text.set($any($event.target).value)"
              data-testid="dialog-text"
            ></textarea>
            <mat-hint align="end">{{ text().length }} / {{ max }}</mat-hint>
            @if (touched() && !valid()) {
              <mat-error>{{ t('validation.required') }}</mat-error>
            }
          </mat-form-field>
        }
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-button type="button" [mat-dialog-close]="undefined" data-testid="dialog-cancel">
          {{ t('requests.dialog.back') }}
        </button>
        <button
          mat-flat-button
          type="button"
          [class.danger]="data.destructive"
          [disabled]="!valid()"
          (click)="confirm()"
          data-testid="dialog-confirm"
        >
          {{ t(data.confirmKey, data.params ?? {}) }}
        </button>
      </mat-dialog-actions>
    </ng-container>
  `,
  styles: `
    .text {
      width: 100%;
      min-width: min(420px, 70vw);
    }
    .detail {
      padding: 8px 12px;
      border-radius: 8px;
      background: var(--mat-sys-surface-container-high);
    }
    .danger {
      --mat-button-filled-container-color: var(--mat-sys-error);
      --mat-button-filled-label-text-color: var(--mat-sys-on-error);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class RequestDialog {
  protected readonly data = inject<RequestDialogData>(MAT_DIALOG_DATA);
  private readonly ref = inject<MatDialogRef<RequestDialog, string | true>>(MatDialogRef);
  protected readonly max = MAX_TEXT;
  protected readonly text = signal('');
  protected readonly touched = computed(() => this.text().length > 0);
  protected readonly valid = computed(() => {
    if (!this.data.inputLabelKey) return true;
    const length = this.text().trim().length;
    return length >= 1 && length <= MAX_TEXT;
  });

  protected confirm(): void {
    if (!this.valid()) return;
    this.ref.close(this.data.inputLabelKey ? this.text().trim() : true);
  }
}

/**
 * Opens the dialog and resolves with the typed text (prompts), `true` (confirmations), or
 * `undefined` when the user backed out.
 */
export function openRequestDialog(
  dialog: MatDialog,
  data: RequestDialogData,
): Promise<string | true | undefined> {
  const ref = dialog.open<RequestDialog, RequestDialogData, string | true>(RequestDialog, {
    data,
    autoFocus: data.inputLabelKey ? 'textarea' : 'first-tabbable',
    maxWidth: '560px',
    width: 'calc(100vw - 32px)',
  });
  return firstValueFrom(ref.afterClosed());
}
