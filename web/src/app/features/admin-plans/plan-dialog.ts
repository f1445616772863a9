import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { MatOption, MatSelect } from '@angular/material/select';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Plan } from '@usher/contracts';
import {
  CURRENCY_EXPONENTS,
  MAX_PLAN_PRICE,
  PLAN_CURRENCIES,
  type PlanCurrency,
} from '@usher/contracts/values';
import { action } from '../../shared/action';
import { DialogShell } from '../../shared/dialog-shell';
import { AdminPlansApi } from './plans-api';
import { TEXT_FIELD } from '../../shared/form-field';
import { NumberField } from '../../shared/number-field';

export interface PlanDialogData {
  /** The plan being edited; absent when creating. */
  plan?: Plan;
}

/**
 * A major-unit price typed by the admin ("19.99", "500", "12.34") as minor units, or null when
 * it has more decimals than the currency has, or is out of range.
 */
export function toMinorUnits(text: string, currency: PlanCurrency): number | null {
  const digits = CURRENCY_EXPONENTS[currency];
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
  if (!Number.isSafeInteger(minor) || minor < 1 || minor > MAX_PLAN_PRICE) return null;
  // Stripe takes three-decimal currencies in whole hundredths only (the last digit 0).
  if (digits === 3 && minor % 10 !== 0) return null;
  return minor;
}

/** Minor units as the text the price field shows. */
export function toMajorText(minor: number, currency: PlanCurrency): string {
  const digits = CURRENCY_EXPONENTS[currency];
  return (minor / 10 ** digits).toFixed(digits);
}

/** Create or edit a plan (60-web.md §4.3 "Plans"); the price is typed in major units. */
@Component({
  selector: 'app-plan-dialog',
  imports: [
    NumberField,
    ReactiveFormsModule,
    MatOption,
    MatSelect,
    MatSlideToggle,
    TranslocoDirective,
    DialogShell,
    ...TEXT_FIELD,
  ],
  templateUrl: './plan-dialog.html',
  styles: `
    .field-error {
      color: var(--mat-sys-error);
      margin: 0 0 8px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PlanDialog {
  private readonly api = inject(AdminPlansApi);
  private readonly ref = inject<MatDialogRef<PlanDialog, boolean>>(MatDialogRef);
  protected readonly data = inject<PlanDialogData>(MAT_DIALOG_DATA);
  protected readonly editing = !!this.data.plan;
  protected readonly currencies = PLAN_CURRENCIES;

  protected readonly form = inject(NonNullableFormBuilder).group({
    name: [this.data.plan?.name ?? '', [Validators.required, Validators.maxLength(60)]],
    description: [this.data.plan?.description ?? '', [Validators.maxLength(500)]],
    days: [
      this.data.plan?.days ?? 30,
      [Validators.required, Validators.min(1), Validators.max(3650)],
    ],
    currency: [(this.data.plan?.currency ?? 'usd') as PlanCurrency],
    price: [
      this.data.plan ? toMajorText(this.data.plan.price, this.data.plan.currency) : '',
      [Validators.required],
    ],
    sortOrder: [this.data.plan?.sortOrder ?? 0, [Validators.required]],
    isActive: [this.data.plan?.isActive ?? true],
    /**
     * Streams at once for members of the plan; empty = the sharing setting's limit. A number
     * input gives the control a number, or null while it is empty.
     */
    maxStreams: [
      (this.data.plan?.maxStreams ?? null) as number | null,
      [Validators.min(1), Validators.max(100), Validators.pattern(/^\d+$/)],
    ],
  });
  protected readonly saving = action();
  protected readonly priceInvalid = signal(false);

  protected async save(): Promise<void> {
    this.form.markAllAsTouched();
    const value = this.form.getRawValue();
    const price = toMinorUnits(value.price, value.currency);
    this.priceInvalid.set(price === null);
    if (this.form.invalid || price === null) return;
    const fields = {
      name: value.name.trim(),
      description: value.description.trim(),
      days: Number(value.days),
      price,
      currency: value.currency,
      sortOrder: Number(value.sortOrder),
      isActive: value.isActive,
      maxStreams: value.maxStreams === null ? null : Number(value.maxStreams),
    };
    await this.saving.run(async () => {
      if (this.data.plan) await this.api.update(this.data.plan.id, fields);
      else await this.api.create(fields);
      this.ref.close(true);
    });
  }
}
