import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Announcement, AnnouncementCreated } from '@usher/contracts';
import { LIFECYCLE_CHANNELS, NOTICE_KINDS, NOTICE_STATUSES } from '@usher/contracts/values';
import { Notifier } from '../../core/notifier';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { FilterBar, type FilterSpec, optionsOf } from '../../shared/filter-field';
import { listPage, localListPage, oneOfParam } from '../../shared/list-page';
import { NoticeTable } from '../../shared/notices/notice-table';
import { type NoticeQuery, NoticesApi } from '../../shared/notices/notices-api';
import { AnnouncementDialog } from './announcement-dialog';
import { LifecycleApi } from './lifecycle-api';
import { TemplateEditor } from './template-editor';
import { UpcomingTimeline } from './upcoming-timeline';
import { RoutedTabGroup, routedTabs } from '../../shared/routed-tabs';
import { chipColumn, whenColumn } from '../../shared/data-table-columns';
import { paging } from '../../shared/list-paging';

export const TABS = ['upcoming', 'log', 'templates', 'announcements'] as const;
const FILTERS = ['userId', 'kind', 'channel', 'status'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ANNOUNCEMENTS_PAGE_SIZE = 10;

/**
 * `/admin/lifecycle?tab=` (issue 29, docs/lifecycle.md "The web"): the reminders of the next 14
 * days as a timeline, the notices log (filters in the URL), the reminder's texts with preview
 * and "send me a test", and the announcements with their composer.
 */
@Component({
  selector: 'app-lifecycle-page',
  imports: [
    MatButton,
    MatIcon,
    MatTab,
    MatTabGroup,
    RoutedTabGroup,
    RouterLink,
    TranslocoDirective,
    DATA_TABLE,
    FilterBar,
    NoticeTable,
    TemplateEditor,
    UpcomingTimeline,
  ],
  templateUrl: './lifecycle-page.html',
  styleUrl: './lifecycle-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class LifecyclePage {
  private readonly api = inject(LifecycleApi);
  private readonly noticesApi = inject(NoticesApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);

  readonly tab = input<string | undefined>();
  readonly userId = input<string | undefined>();
  readonly kind = input<string | undefined>();
  readonly channel = input<string | undefined>();
  readonly status = input<string | undefined>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly tabs = routedTabs(TABS, this.tab);

  protected readonly notices = listPage({
    query: (): NoticeQuery => ({
      userId: UUID.test(this.userId() ?? '') ? this.userId()! : '',
      kind: oneOfParam(this.kind(), NOTICE_KINDS),
      channel: oneOfParam(this.channel(), LIFECYCLE_CHANNELS),
      status: oneOfParam(this.status(), NOTICE_STATUSES),
      ...paging(this.page(), this.pageSize()),
    }),
    load: (query, abort) => this.noticesApi.list(query, abort),
    filters: FILTERS,
    filtered: (q) => !!(q.userId || q.kind || q.channel || q.status),
    active: () => this.tabs.name() === 'log',
  });
  protected readonly filters: FilterSpec[] = [
    {
      param: 'kind',
      label: 'notices.col.what',
      options: optionsOf(NOTICE_KINDS, 'notices.kind.'),
      any: 'adminPayments.any',
      testId: 'notices-kind',
    },
    {
      param: 'channel',
      label: 'notices.col.channel',
      options: optionsOf(LIFECYCLE_CHANNELS, 'notices.channel.'),
      any: 'adminPayments.any',
    },
    {
      param: 'status',
      label: 'notices.col.status',
      options: optionsOf(NOTICE_STATUSES, 'notices.status.'),
      any: 'adminPayments.any',
      testId: 'notices-status',
    },
    { param: 'userId', label: 'notices.memberId', testId: 'notices-member' },
  ];

  /** The announcement just posted and how many members it went to. */
  protected readonly posted = signal<AnnouncementCreated | null>(null);
  protected readonly announcements = localListPage({
    params: () => (this.tabs.name() === 'announcements' ? true : undefined),
    load: (_all, page, pageSize, abort) => this.api.announcements(page, pageSize, abort),
    pageSize: ANNOUNCEMENTS_PAGE_SIZE,
  });
  protected readonly announcementTable: TableSpec<Announcement> = {
    columns: [
      whenColumn('created', 'lifecycle.col.created', (a) => a.createdAt),
      { id: 'title', header: 'lifecycle.col.title', width: 'wide' },
      {
        id: 'audience',
        header: 'lifecycle.col.audience',
        width: '12%',
        key: (a) => `lifecycle.audience.${a.audience}`,
      },
      {
        id: 'recipients',
        header: 'lifecycle.col.recipients',
        width: 'num',
        text: (a) => a.recipients,
      },
      { id: 'read', header: 'lifecycle.col.read', width: 'num', text: (a) => a.read },
      { id: 'delivery', header: 'lifecycle.col.delivery', width: '22%' },
      chipColumn('status', 'lifecycle.col.status', (a) =>
        a.status === 'done'
          ? { tone: 'success', icon: 'check_circle', label: 'lifecycle.announcementStatus.done' }
          : { tone: 'info', icon: 'schedule', label: 'lifecycle.announcementStatus.sending' },
      ),
    ],
    rowAttrs: (a: Announcement) => ({ 'data-announcement': a.id }),
    emptyIcon: 'campaign',
    empty: 'lifecycle.announcementsEmpty',
    testId: 'announcements',
  };

  protected navigate(params: Record<string, string | number | null>): void {
    this.notices.navigate(params);
  }

  protected compose(): void {
    this.dialog
      .open<AnnouncementDialog, unknown, AnnouncementCreated>(AnnouncementDialog, {
        maxWidth: '600px',
        width: 'calc(100vw - 32px)',
        autoFocus: 'first-tabbable',
      })
      .afterClosed()
      .subscribe({
        next: (created) => {
          if (!created) return;
          this.posted.set(created);
          this.notifier.show('lifecycle.announce.posted', { n: created.recipients });
          this.announcements.reload();
        },
      });
  }
}
