import { Clipboard } from '@angular/cdk/clipboard';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatButtonToggle, MatButtonToggleGroup } from '@angular/material/button-toggle';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { MatProgressBar } from '@angular/material/progress-bar';
import { TranslocoDirective } from '@jsverse/transloco';
import type { RedeemCode } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { action } from '../../shared/action';
import { DialogShell } from '../../shared/dialog-shell';
import { Notifier } from '../../core/notifier';
import { downloadText, toCsv } from '../../shared/csv';
import { FieldErrorPipe } from '../../shared/field-error';
import { type CodeFields, RedeemCodesApi, codesCsvRows } from './redeem-codes-api';
import { TEXT_FIELD } from '../../shared/form-field';
import { DIALOG_PARTS } from '../../shared/dialog-parts';
import { NumberField } from '../../shared/number-field';

export interface CodeDialogData {
  /** The code being edited; absent when creating. */
  code?: RedeemCode;
}

/** Result of the dialog: whether anything changed (the list then reloads). */
export type CodeDialogResult = boolean;

/** `YYYY-MM-DD` of an instant in the browser's zone, for `<input type="date">`. */
export function toDateInput(instant: string | null): string {
  if (!instant) return '';
  const d = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end of a picked day in the browser's zone, as the API's ISO instant; '' → null. */
export function fromDateInput(day: string): string | null {
  if (!day) return null;
  return new Date(`${day}T23:59:59.999`).toISOString();
}

/**
 * Create (one code or a batch of 1–100) or edit a code (60-web.md §4.3). Batch creation is one
 * request and one transaction: an indeterminate bar while it runs (§5), then the created codes
 * with Copy all and Download CSV.
 */
@Component({
  selector: 'app-code-dialog',
  imports: [
    NumberField,
    ReactiveFormsModule,
    MatButton,
    MatButtonToggle,
    MatButtonToggleGroup,
    MatProgressBar,
    TranslocoDirective,
    FieldErrorPipe,
    DialogShell,
    ...TEXT_FIELD,
    ...DIALOG_PARTS,
  ],
  templateUrl: './code-dialog.html',
  styleUrl: './code-dialog.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class CodeDialog {
  private readonly api = inject(RedeemCodesApi);
  private readonly ref = inject<MatDialogRef<CodeDialog, CodeDialogResult>>(MatDialogRef);
  private readonly clipboard = inject(Clipboard);
  private readonly notifier = inject(Notifier);
  protected readonly editing = inject<CodeDialogData>(MAT_DIALOG_DATA).code ?? null;

  protected readonly form = inject(NonNullableFormBuilder).group({
    kind: ['single' as 'single' | 'batch'],
    count: [10, [Validators.required, Validators.min(1), Validators.max(100)]],
    days: [
      this.editing?.days ?? 30,
      [Validators.required, Validators.min(1), Validators.max(3650)],
    ],
    maxUses: [
      this.editing?.maxUses ?? 1,
      [Validators.required, Validators.min(1), Validators.max(10000)],
    ],
    expiresAt: [toDateInput(this.editing?.expiresAt ?? null)],
    notes: [this.editing?.notes ?? '', [Validators.maxLength(500)]],
  });
  protected readonly kind = toSignal(this.form.controls.kind.valueChanges, {
    initialValue: 'single' as 'single' | 'batch',
  });
  protected readonly saving = action();
  /** The codes just created, shown instead of the form. */
  protected readonly created = signal<RedeemCode[] | null>(null);
  protected readonly createdText = computed(() =>
    (this.created() ?? []).map((c) => c.code).join('\n'),
  );
  protected readonly today = toDateInput(new Date().toISOString());

  protected async save(): Promise<void> {
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    const { kind, count, days, maxUses, expiresAt, notes } = this.form.getRawValue();
    const fields: CodeFields = {
      days: Number(days),
      maxUses: Number(maxUses),
      expiresAt: fromDateInput(expiresAt),
      notes: notes.trim(),
    };
    // Only the dialog's own close buttons may end it while the request runs.
    this.ref.disableClose = true;
    await this.saving.run(
      async () => {
        if (this.editing) {
          await this.api.update(this.editing.id, fields);
          this.notifier.show('redeemCodes.saved');
          this.ref.close(true);
        } else if (kind === 'batch') {
          this.created.set(await this.api.batch(Number(count), fields));
        } else {
          this.created.set([await this.api.create(fields)]);
        }
      },
      {
        handle: (error) => {
          // Shown on the field and on the error line both.
          if (error instanceof ApiError && error.code === 'MAX_USES_BELOW_USED') {
            this.form.controls.maxUses.setErrors({ belowUsed: true });
          }
          return false;
        },
      },
    );
    this.ref.disableClose = false;
  }

  protected copyAll(): void {
    if (this.clipboard.copy(this.createdText())) this.notifier.show('common.copied');
  }

  protected downloadCsv(): void {
    const codes = this.created() ?? [];
    const stamp = new Date().toISOString().slice(0, 10);
    downloadText(`redeem-codes-${stamp}.csv`, toCsv(codesCsvRows(codes)));
  }
}
