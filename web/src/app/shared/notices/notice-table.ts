import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Notice } from '@usher/contracts';
import type { NoticeStatus } from '@usher/contracts/values';
import { type ChipSpec, type Column, DATA_TABLE } from '../data-table';
import type { ListPage } from '../list-page';
import { chipColumn, whenColumn } from '../data-table-columns';

/** How a notice's state reads (icon + text + tone, never colour alone). */
export const NOTICE_CHIPS: Record<NoticeStatus, ChipSpec> = {
  sent: { tone: 'success', icon: 'check_circle', label: 'notices.status.sent' },
  sending: { tone: 'info', icon: 'schedule', label: 'notices.status.sending' },
  failed: { tone: 'error', icon: 'error', label: 'notices.status.failed' },
  skipped: { tone: 'neutral', icon: 'block', label: 'notices.status.skipped' },
};

/** The icon of each channel, beside its name. */
export const CHANNEL_ICONS: Record<string, string> = {
  email: 'mail',
  messenger: 'send',
  webhook: 'webhook',
};

/**
 * The notices log as a table (docs/lifecycle.md): when, the member (a link to the member's
 * page, and a filter when the owner listens), what, on which channel, the outcome with its
 * reason and tries. The lifecycle page's log and the user detail's Notices tab.
 */
@Component({
  selector: 'app-notice-table',
  imports: [TranslocoDirective, RouterLink, DATA_TABLE],
  template: `
    <ng-container *transloco="let t">
      <app-data-table
        [list]="list()"
        [columns]="columns()"
        [rowAttrs]="attrs"
        emptyIcon="mail"
        [emptyMessage]="emptyMessage()"
        [testId]="testId()"
      >
        <ng-template appCell="member" [appCellOf]="list()" let-row>
          <a [routerLink]="['/admin/users', row.userId]" [queryParams]="{ tab: 'notices' }">{{
            row.username
          }}</a>
        </ng-template>
        <ng-template appCell="what" [appCellOf]="list()" let-row>
          {{ t('notices.kind.' + row.kind) }}
          @if (row.days) {
            <span class="muted">{{ t('notices.daysBefore', { n: row.days }) }}</span>
          }
        </ng-template>
        <ng-template appCell="channel" [appCellOf]="list()" let-row>
          <span class="channel">{{ t('notices.channel.' + row.channel) }}</span>
        </ng-template>
        <ng-template appCell="detail" [appCellOf]="list()" let-row>
          @if (row.detail) {
            <span class="detail">{{ row.detail }}</span>
          }
          @if (row.attempts > 1) {
            <span class="muted">{{ t('notices.attempts', { n: row.attempts }) }}</span>
          }
        </ng-template>
      </app-data-table>
    </ng-container>
  `,
  styles: `
    .muted {
      display: block;
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-on-surface-variant);
    }
    .detail {
      overflow-wrap: anywhere;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class NoticeTable {
  readonly list = input.required<ListPage<Notice>>();
  /** Already translated: the sentence of an empty log. */
  readonly emptyMessage = input.required<string>();
  /** The member column (left out on a member's own page). */
  readonly showMember = input(true);
  readonly testId = input('notices');

  protected readonly columns = computed<Column<Notice>[]>(() => [
    whenColumn<Notice>('when', 'notices.col.when', (n) => n.updatedAt),
    ...(this.showMember() ? [{ id: 'member', header: 'notices.col.member' }] : []),
    { id: 'what', header: 'notices.col.what' },
    { id: 'channel', header: 'notices.col.channel', width: '12%' as const },
    chipColumn<Notice>('status', 'notices.col.status', (n) => NOTICE_CHIPS[n.status]),
    { id: 'detail', header: 'notices.col.detail', width: 'wide' as const },
  ]);
  protected readonly attrs = (notice: Notice) => ({
    'data-notice': notice.id,
    'data-status': notice.status,
  });
}
