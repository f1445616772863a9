import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  input,
  signal,
  untracked,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { MatProgressBar } from '@angular/material/progress-bar';
import { MatTooltip } from '@angular/material/tooltip';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { MediaRequest } from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { RequestCard } from '../../shared/requests/request-card';
import { openRequestDialog } from '../../shared/requests/request-dialog';
import {
  REQUEST_TABS,
  type RequestTab,
  parsePage,
  parseRequestTab,
} from '../../shared/requests/request-status';
import { existingOf, summaryMessage } from './request-errors';
import { RequestsApi } from './requests-api';

const PAGE_SIZE = 20;

/** `/console/requests?status=&page=` (60-web.md §4.2 "My requests"). */
@Component({
  selector: 'app-my-requests',
  imports: [
    MatButton,
    MatIcon,
    MatProgressBar,
    MatTooltip,
    RouterLink,
    TranslocoDirective,
    RequestCard,
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
  private readonly router = inject(Router);
  private readonly session = inject(SessionStore);

  readonly status = input<string | undefined>();
  readonly page = input<string | undefined>();

  protected readonly tabs = REQUEST_TABS;
  protected readonly tab = computed(() => parseRequestTab(this.status()));
  protected readonly pageNumber = computed(() => parsePage(this.page()));
  protected readonly result = signal<Page<MediaRequest> | null>(null);
  protected readonly loading = signal(true);
  protected readonly error = signal<ErrorText | null>(null);
  protected readonly busyId = signal<string | null>(null);
  /** The status tab of the request that made a resubmit a duplicate (REQUEST_EXISTS). */
  protected readonly existing = signal<RequestTab | null>(null);
  /** Expired members may look and cancel, not ask (60-web.md §2.4). */
  protected readonly expired = computed(() => this.session.me()?.isExpired === true);
  protected readonly lastPage = computed(() => {
    const result = this.result();
    return result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1;
  });

  constructor() {
    effect(() => {
      const tab = this.tab();
      const page = this.pageNumber();
      untracked(() => void this.load(tab, page));
    });
  }

  protected reload(): void {
    void this.load(this.tab(), this.pageNumber());
  }

  protected show(tab: RequestTab, page = 1): void {
    void this.router.navigate([], {
      queryParams: { status: tab || null, page: page > 1 ? page : null },
      queryParamsHandling: 'merge',
    });
  }

  protected async cancel(request: MediaRequest): Promise<void> {
    const confirmed = await openRequestDialog(this.dialog, {
      titleKey: 'requests.cancel.title',
      messageKey: 'requests.cancel.message',
      params: { name: request.name },
      confirmKey: 'requests.cancel.confirm',
      destructive: true,
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

  private async act(request: MediaRequest, action: () => Promise<void>): Promise<void> {
    this.busyId.set(request.id);
    this.existing.set(null);
    try {
      await action();
      await this.load(this.tab(), this.pageNumber());
    } catch (error) {
      if (error instanceof ApiError && error.code === 'REQUEST_EXISTS') {
        this.existing.set(parseRequestTab(existingOf(error.details)?.status));
      }
      if (error instanceof ApiError && error.code === 'REQUEST_STATE_CHANGED') {
        await this.load(this.tab(), this.pageNumber());
      }
      this.notifier.show('requests.actionFailed', { reason: this.errors.describe(error).message });
    } finally {
      this.busyId.set(null);
    }
  }

  private async load(tab: RequestTab, page: number): Promise<void> {
    this.loading.set(true);
    this.error.set(null);
    try {
      this.result.set(await this.api.list(tab || null, page, PAGE_SIZE));
    } catch (error) {
      this.error.set(this.errors.describe(error));
    } finally {
      this.loading.set(false);
    }
  }
}
