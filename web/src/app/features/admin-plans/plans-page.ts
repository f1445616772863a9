import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Plan } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import { confirmAction } from '../../shared/confirm-dialog';
import { FormError } from '../../shared/form-error';
import { listPage, pageParam, pageSizeParam } from '../../shared/list-page';
import { ListView } from '../../shared/list-view';
import { MoneyPipe } from '../../shared/money';
import { type RowAction, RowMenu } from '../../shared/row-menu';
import { StatusChip } from '../../shared/status-chip';
import { PlanDialog, type PlanDialogData } from './plan-dialog';
import { AdminPlansApi } from './plans-api';

/**
 * `/admin/plans` (60-web.md §4.3): what members can buy. Create, edit, move up or down (the
 * sort order), withdraw (never delete: payments keep pointing at the plan).
 */
@Component({
  selector: 'app-plans-page',
  imports: [
    MatButton,
    MatIcon,
    TranslocoDirective,
    FormError,
    ListView,
    MoneyPipe,
    RowMenu,
    StatusChip,
  ],
  templateUrl: './plans-page.html',
  styleUrl: './plans-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class PlansPage {
  private readonly api = inject(AdminPlansApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);

  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly plans = listPage({
    query: () => ({ page: pageParam(this.page()), pageSize: pageSizeParam(this.pageSize()) }),
    load: (q) => this.api.list(q.page, q.pageSize),
    filters: [],
    filtered: () => false,
  });
  protected readonly enabled = apiResource({
    params: () => true,
    load: () => this.api.paymentsEnabled(),
  });
  protected readonly actionError = signal<ErrorText | null>(null);

  protected rowActions(plan: Plan, index: number): RowAction[] {
    const rows = this.plans.rows() ?? [];
    const actions: RowAction[] = [
      {
        icon: 'edit',
        label: 'adminPlans.edit',
        testId: 'plan-edit',
        run: () => this.open({ plan }),
      },
    ];
    if (plan.isActive && index > 0 && rows[index - 1]?.isActive) {
      actions.push({
        icon: 'arrow_upward',
        label: 'adminPlans.moveUp',
        run: () => void this.swap(plan, rows[index - 1]!, -1),
      });
    }
    if (plan.isActive && rows[index + 1]?.isActive) {
      actions.push({
        icon: 'arrow_downward',
        label: 'adminPlans.moveDown',
        run: () => void this.swap(plan, rows[index + 1]!, 1),
      });
    }
    if (plan.isActive) {
      actions.push({
        icon: 'remove_shopping_cart',
        label: 'adminPlans.withdraw',
        testId: 'plan-withdraw',
        run: () => void this.withdraw(plan),
      });
    }
    return actions;
  }

  protected create(): void {
    this.open({});
  }

  /** Trades places with a neighbour; equal orders are split so the move always shows. */
  private async swap(plan: Plan, other: Plan, direction: -1 | 1): Promise<void> {
    const mine = other.sortOrder === plan.sortOrder ? plan.sortOrder + direction : other.sortOrder;
    await this.run(async () => {
      await this.api.update(plan.id, { sortOrder: mine });
      if (other.sortOrder !== plan.sortOrder) {
        await this.api.update(other.id, { sortOrder: plan.sortOrder });
      }
    });
  }

  private async withdraw(plan: Plan): Promise<void> {
    const confirmed = await confirmAction(this.dialog, {
      titleKey: 'adminPlans.withdrawTitle',
      consequenceKeys: ['adminPlans.withdrawHidden', 'adminPlans.withdrawPending'],
      params: { name: plan.name },
      confirmKey: 'adminPlans.withdraw',
      destructive: true,
    });
    if (!confirmed) return;
    await this.run(async () => {
      await this.api.withdraw(plan.id);
      this.notifier.show('adminPlans.withdrawn', { name: plan.name });
    });
  }

  private async run(work: () => Promise<void>): Promise<void> {
    this.actionError.set(null);
    try {
      await work();
    } catch (error) {
      this.actionError.set(this.errors.describe(error));
    }
    this.plans.reload();
    this.enabled.reload();
  }

  private open(data: PlanDialogData): void {
    this.dialog
      .open<PlanDialog, PlanDialogData, boolean>(PlanDialog, {
        data,
        maxWidth: '520px',
        width: 'calc(100vw - 32px)',
        autoFocus: 'first-tabbable',
      })
      .afterClosed()
      .subscribe((changed) => {
        if (changed) {
          this.plans.reload();
          this.enabled.reload();
        }
      });
  }
}
