import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Plan } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { Notifier } from '../../core/notifier';
import { type RunOptions, action } from '../../shared/action';
import { confirmAction } from '../../shared/confirm-dialog';
import { type ChipSpec, DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { FormError } from '../../shared/form-error';
import { listPage } from '../../shared/list-page';
import { MoneyPipe } from '../../shared/money';
import { type RowAction } from '../../shared/row-menu';
import { PlanDialog, type PlanDialogData } from './plan-dialog';

const ON_SALE: ChipSpec = { tone: 'success', icon: 'sell', label: 'adminPlans.onSale' };
const WITHDRAWN: ChipSpec = {
  tone: 'neutral',
  icon: 'remove_shopping_cart',
  label: 'adminPlans.withdrawnState',
};
import { AdminPlansApi } from './plans-api';
import { menuColumn } from '../../shared/data-table-columns';
import { paging } from '../../shared/list-paging';

/**
 * `/admin/plans` (60-web.md §4.3): what members can buy. Create, edit, move up or down (the
 * sort order), withdraw (never delete: payments keep pointing at the plan).
 */
@Component({
  selector: 'app-plans-page',
  imports: [MatButton, MatIcon, TranslocoDirective, FormError, DATA_TABLE, MoneyPipe],
  templateUrl: './plans-page.html',
  styleUrl: './plans-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class PlansPage {
  private readonly api = inject(AdminPlansApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);

  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly plans = listPage({
    query: () => paging(this.page(), this.pageSize()),
    load: (q) => this.api.list(q.page, q.pageSize),
    filters: [],
    filtered: () => false,
  });
  protected readonly enabled = apiResource({
    params: () => true,
    load: () => this.api.paymentsEnabled(),
  });
  protected readonly planAction = action();
  protected readonly table: TableSpec<Plan> = {
    columns: [
      { id: 'name', header: 'adminPlans.name', text: (p) => p.name },
      { id: 'days', header: 'adminPlans.days', text: (p) => p.days },
      { id: 'price', header: 'adminPlans.price' },
      { id: 'state', header: 'adminPlans.state', chip: (p) => (p.isActive ? ON_SALE : WITHDRAWN) },
      { id: 'sortOrder', header: 'adminPlans.sortOrder', text: (p) => p.sortOrder },
      menuColumn(
        (p) => ({
          label: 'adminPlans.actionsFor',
          params: { name: p.name },
          actions: this.rowActions(p),
        }),
        { width: undefined },
      ),
    ],
    rowAttrs: (plan: Plan) => ({ 'data-plan': plan.name }),
    emptyIcon: 'sell',
    empty: 'adminPlans.empty',
    tableTestId: 'plans-table',
  };

  protected rowActions(plan: Plan): RowAction[] {
    const rows = this.plans.rows() ?? [];
    const index = rows.indexOf(plan);
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
        run: () => void this.move(plan, -1),
      });
    }
    if (plan.isActive && rows[index + 1]?.isActive) {
      actions.push({
        icon: 'arrow_downward',
        label: 'adminPlans.moveDown',
        run: () => void this.move(plan, 1),
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

  /**
   * Trades places with the neighbour on sale, as one `PUT /admin/plans/order` of the whole order
   * read just before (docs/payments.md): the move is written entirely or not at all.
   */
  private async move(plan: Plan, direction: -1 | 1): Promise<void> {
    await this.run(async () => {
      const ids = await this.api.onSale();
      const from = ids.indexOf(plan.id);
      const to = from + direction;
      if (from < 0 || to < 0 || to >= ids.length) return;
      [ids[from], ids[to]] = [ids[to]!, ids[from]!];
      await this.api.reorder(ids);
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
    await this.run(() => this.api.withdraw(plan.id), {
      done: 'adminPlans.withdrawn',
      params: { name: plan.name },
    });
  }

  private async run(work: () => Promise<unknown>, options: RunOptions = {}): Promise<void> {
    await this.planAction.run(work, {
      ...options,
      after: () => {
        this.plans.reload();
        this.enabled.reload();
      },
    });
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
