import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import type { MatDialog } from '@angular/material/dialog';
import { MAT_DIALOG_DATA } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import { firstValueFrom } from 'rxjs';
import { TEXT_FIELD } from './form-field';
import { DIALOG_PARTS } from './dialog-parts';

/** What a confirmation says; every text is a translation key with its parameters. */
export interface ConfirmData {
  titleKey: string;
  /** Consequences, one sentence each (60-web.md §1 "ConfirmDialog lists the consequences"). */
  consequenceKeys: readonly string[];
  params?: Record<string, unknown>;
  confirmKey: string;
  /** Whether the action destroys something (the button takes the error tone). */
  destructive?: boolean;
  /** A word the admin must type to enable the button (a username before deleting it). */
  typeToConfirm?: string;
}

@Component({
  selector: 'app-confirm-dialog',
  imports: [MatButton, TranslocoDirective, ...TEXT_FIELD, ...DIALOG_PARTS],
  template: `
    <ng-container *transloco="let t">
      <h2 mat-dialog-title>{{ t(data.titleKey, data.params ?? {}) }}</h2>
      <mat-dialog-content>
        <ul class="consequences">
          @for (key of data.consequenceKeys; track key) {
            <li>{{ t(key, data.params ?? {}) }}</li>
          }
        </ul>
        @if (data.typeToConfirm) {
          <mat-form-field appearance="outline" class="typed">
            <mat-label>{{ t('dialogs.typeToConfirm', { word: data.typeToConfirm }) }}</mat-label>
            <input
              matInput
              autocomplete="off"
              data-testid="confirm-typed"
              [value]="typed()"
              (input)="typed.set($any($event.target).value)"
            />
          </mat-form-field>
        }
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-button type="button" [mat-dialog-close]="false">
          {{ t('dialogs.cancel') }}
        </button>
        <button
          mat-flat-button
          type="button"
          data-testid="confirm-ok"
          [class.danger]="data.destructive"
          [disabled]="!allowed()"
          [mat-dialog-close]="true"
        >
          {{ t(data.confirmKey, data.params ?? {}) }}
        </button>
      </mat-dialog-actions>
    </ng-container>
  `,
  styles: `
    .consequences {
      margin: 0;
      padding-inline-start: 20px;
    }
    .typed {
      width: 100%;
      margin-top: 16px;
    }
    .danger:not([disabled]) {
      background: var(--mat-sys-error);
      color: var(--mat-sys-on-error);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ConfirmDialog {
  protected readonly data = inject<ConfirmData>(MAT_DIALOG_DATA);
  protected readonly typed = signal('');
  protected readonly allowed = computed(
    () => !this.data.typeToConfirm || this.typed().trim() === this.data.typeToConfirm,
  );
}

/** Opens the confirmation and resolves to whether the action was confirmed. */
export async function confirmAction(dialog: MatDialog, data: ConfirmData): Promise<boolean> {
  const ref = dialog.open<ConfirmDialog, ConfirmData, boolean>(ConfirmDialog, {
    data,
    autoFocus: 'first-tabbable',
    restoreFocus: true,
    maxWidth: '560px',
    width: 'calc(100vw - 32px)',
  });
  return (await firstValueFrom(ref.afterClosed())) === true;
}
