import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { MatTooltip } from '@angular/material/tooltip';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { MediaRequest } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { RequestCard, type RequestAction } from '../../shared/requests/request-card';
import { openRequestDialog } from '../../shared/requests/request-dialog';
import { listPage, pageParam } from '../../shared/list-page';
import { ListView } from '../../shared/list-view';
import { type RequestTab, parseRequestTab } from '../../shared/requests/request-status';
import { RequestTabs } from '../../shared/requests/request-tabs';
import { existingOf, summaryMessage } from './request-errors';
import { RequestsApi } from './requests-api';
import { rowAction } from '../../shared/action';
import { ExpiredNote } from '../../shared/requests/expired-note';

const PAGE_SIZE = 20;

/** `/console/requests?status=&page=` (60-web.md §4.2 "My requests"). */
@Component({
  selector: 'app-my-requests',
  imports: [
    ExpiredNote,
    MatButton,
    MatIcon,
    MatTooltip,
    RouterLink,
    TranslocoDirective,
    ListView,
    RequestCard,
    RequestTabs,
  ],
  templateUrl: './my-requests.html',
  styleUrl: '../../shared/requests/request-pages.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class MyRequests {
  private readonly api = inject(RequestsApi);
  private readonly errors = inject(ErrorTexts);
  private readonly notifier = inject(Notifier);
  private readonly dialog = inject(MatDialog);
  private readonly session = inject(SessionStore);

  readonly status = input<string | undefined>();
  readonly page = input<string | undefined>();

  /** 20 cards a page (60-web.md §4.2); the status tab is the one filter. */
  protected readonly list = listPage({
    query: () => ({
      status: parseRequestTab(this.status()),
      page: pageParam(this.page()),
      pageSize: PAGE_SIZE,
    }),
    load: (q) => this.api.list(q.status || null, q.page, q.pageSize),
    filters: ['status'],
    filtered: (q) => q.status !== '',
    pageSizes: [],
  });
  protected readonly tab = computed(() => this.list.query().status);
  /** One request's action at a time; a second click meanwhile is ignored. */
  protected readonly acting = rowAction();
  /** The status tab of the request that made a resubmit a duplicate (REQUEST_EXISTS). */
  protected readonly existing = signal<RequestTab | null>(null);
  /** Expired members may look and cancel, not ask (60-web.md §2.4). */
  protected readonly expired = computed(() => this.session.me()?.isExpired === true);

  /** Pending requests can be cancelled, rejected ones resubmitted (60-web.md §4.2 "Actions"). */
  protected actionsOf(request: MediaRequest): RequestAction[] {
    if (request.status === 'PENDING') {
      return [
        {
          testId: 'cancel-request',
          label: 'requests.cancel.action',
          run: () => void this.cancel(request),
        },
      ];
    }
    if (request.status === 'REJECTED') {
      return [
        {
          testId: 'resubmit-request',
          label: 'requests.resubmit.action',
          // Expired members may look and cancel, not ask again (60-web.md §2.4).
          disabled: this.expired(),
          ...(this.expired() ? { tooltip: 'requests.renewToRequest' } : {}),
          run: () => void this.resubmit(request),
        },
      ];
    }
    return [];
  }

  /** The tab of the request a resubmit duplicated (REQUEST_EXISTS). */
  protected show(tab: RequestTab): void {
    this.list.navigate({ status: tab || null });
  }

  protected async cancel(request: MediaRequest): Promise<void> {
    const confirmed = await openRequestDialog(this.dialog, {
      titleKey: 'requests.cancel.title',
      messageKey: 'requests.cancel.message',
      params: { name: request.name },
      confirmKey: 'requests.cancel.confirm',
      destructive: true,
      art: request,
    });
    if (!confirmed) return;
    await this.act(request, async () => {
      await this.api.cancel(request.id);
      this.notifier.show('requests.cancel.done');
    });
  }

  protected async resubmit(request: MediaRequest): Promise<void> {
    const note = await openRequestDialog(this.dialog, {
      titleKey: 'requests.resubmit.title',
      messageKey: 'requests.resubmit.message',
      params: { name: request.name },
      inputLabelKey: 'requests.resubmit.note',
      confirmKey: 'requests.resubmit.confirm',
      art: request,
    });
    if (typeof note !== 'string') return;
    await this.act(request, async () => {
      try {
        await this.api.resubmit(request.id, note, false);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'ALREADY_IN_LIBRARY') throw error;
        const anyway = await openRequestDialog(this.dialog, {
          titleKey: 'requests.existing.title',
          messageKey: 'requests.existing.message',
          detail: summaryMessage(error.details),
          params: { name: request.name },
          confirmKey: 'requests.existing.submitAnyway',
        });
        if (!anyway) return;
        await this.api.resubmit(request.id, note, true);
      }
      this.notifier.show('requests.resubmit.done');
    });
  }

  private async act(request: MediaRequest, work: () => Promise<void>): Promise<void> {
    this.existing.set(null);
    const ok = await this.acting.runFor(request.id, work, {
      handle: (error) => {
        if (error instanceof ApiError && error.code === 'REQUEST_EXISTS') {
          this.existing.set(parseRequestTab(existingOf(error.details)?.status));
        }
        if (error instanceof ApiError && error.code === 'REQUEST_STATE_CHANGED') {
          this.list.reload();
        }
        this.notifier.show('requests.actionFailed', {
          reason: this.errors.describe(error).message,
        });
        return true;
      },
    });
    if (ok) this.list.reload();
  }
}
