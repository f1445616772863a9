import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatPrefix } from '@angular/material/form-field';
import { MatIcon } from '@angular/material/icon';
import { MatOption, MatSelect } from '@angular/material/select';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import { firstValueFrom } from 'rxjs';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminMediaRequest, RequestType } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import { RequestCard, type RequestAction } from '../../shared/requests/request-card';
import { openRequestDialog } from '../../shared/requests/request-dialog';
import { parseRequestTab } from '../../shared/requests/request-status';
import { RequestTabs } from '../../shared/requests/request-tabs';
import { listPage, pageParam } from '../../shared/list-page';
import { ListView } from '../../shared/list-view';
import { AdminRequestsApi } from './admin-requests-api';
import { CandidatesDialog, type CandidatesOutcome } from './candidates-dialog';
import { TEXT_FIELD } from '../../shared/form-field';
import { rowAction } from '../../shared/action';

const PAGE_SIZE = 20;
const SEARCH_DEBOUNCE_MS = 350;
/** Conflicts meaning someone else (another admin, the bot) acted first. */
const HANDLED_ELSEWHERE = new Set([
  'REQUEST_STATE_CHANGED',
  'NOT_REDISPATCHABLE',
  'REQUEST_NOT_FOUND',
]);

/** `/admin/requests?status=&type=&search=&userId=&automationError=&page=` (60-web.md §4.3). */
@Component({
  selector: 'app-request-review',
  imports: [
    MatButton,
    MatPrefix,
    MatIcon,
    MatOption,
    MatSelect,
    MatSlideToggle,
    TranslocoDirective,
    ListView,
    RequestCard,
    RequestTabs,
    ...TEXT_FIELD,
  ],
  templateUrl: './request-review.html',
  styleUrl: '../../shared/requests/request-pages.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class RequestReview {
  private readonly api = inject(AdminRequestsApi);
  private readonly errors = inject(ErrorTexts);
  private readonly notifier = inject(Notifier);
  private readonly dialog = inject(MatDialog);

  readonly status = input<string | undefined>();
  readonly type = input<string | undefined>();
  readonly search = input<string | undefined>();
  readonly userId = input<string | undefined>();
  readonly automationError = input<string | undefined>();
  readonly page = input<string | undefined>();

  protected readonly list = listPage({
    query: () => ({
      status: parseRequestTab(this.status()) || null,
      type: (this.type() === 'MOVIE' || this.type() === 'TV'
        ? this.type()
        : null) as RequestType | null,
      search: this.search() ?? '',
      userId: this.userId() || null,
      automationError: this.automationError() === 'true',
      page: pageParam(this.page()),
      pageSize: PAGE_SIZE,
    }),
    load: (filters, abort) => this.api.list(filters, abort),
    filters: ['status', 'type', 'search', 'userId', 'automationError'],
    filtered: (q) => !!(q.status || q.type || q.search || q.userId || q.automationError),
    pageSizes: [],
  });
  protected readonly filters = this.list.query;
  /** One request's action at a time; a second click meanwhile (a double click) is ignored. */
  protected readonly acting = rowAction();
  /** False once the API said manual search needs MoviePilot (503 NOT_SUPPORTED). */
  protected readonly searchSupported = signal(true);
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  /** The buttons a request offers in its state (60-web.md §4.3 "Actions"). */
  protected actionsOf(request: AdminMediaRequest): RequestAction[] {
    const actions: RequestAction[] = [];
    if (request.status === 'PENDING') {
      actions.push(
        {
          testId: 'approve-request',
          label: 'adminRequests.approve',
          appearance: 'filled',
          run: () => void this.approve(request),
        },
        {
          testId: 'reject-request',
          label: 'adminRequests.reject.action',
          run: () => void this.reject(request),
        },
      );
    }
    if (request.status === 'APPROVED') {
      actions.push({
        testId: 'verify-request',
        label: 'adminRequests.verify',
        run: () => void this.verify(request),
      });
      if (this.searchSupported()) {
        actions.push({
          testId: 'search-candidates',
          label: 'adminRequests.candidates.action',
          run: () => void this.searchCandidates(request),
        });
      }
      if (request.automation.error) {
        actions.push({
          testId: 'redispatch-request',
          label:
            this.acting.key() === request.id ? 'adminRequests.sending' : 'adminRequests.redispatch',
          run: () => void this.redispatch(request),
        });
      }
    }
    actions.push({
      testId: 'delete-request',
      label: 'adminRequests.delete.action',
      appearance: 'text',
      run: () => void this.remove(request),
    });
    return actions;
  }

  /** Changes one filter in the URL (the list follows); any filter change goes back to page 1. */
  protected setFilter(params: Record<string, string | null>): void {
    this.list.navigate(params);
  }

  protected setSearch(event: Event): void {
    const value = (event.target as HTMLInputElement).value;
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(
      () => this.setFilter({ search: value.trim() || null }),
      SEARCH_DEBOUNCE_MS,
    );
  }

  protected approve(request: AdminMediaRequest): Promise<void> {
    return this.act(request, async () => {
      await this.api.approve(request.id);
      this.notifier.show('adminRequests.approved', { name: request.name });
    });
  }

  protected async reject(request: AdminMediaRequest): Promise<void> {
    const reason = await openRequestDialog(this.dialog, {
      titleKey: 'adminRequests.reject.title',
      params: { name: request.name, user: request.requester.username },
      messageKey: 'adminRequests.reject.message',
      inputLabelKey: 'adminRequests.reject.reason',
      confirmKey: 'adminRequests.reject.confirm',
      destructive: true,
      art: request,
    });
    if (typeof reason !== 'string') return;
    await this.act(request, async () => {
      await this.api.reject(request.id, reason);
      this.notifier.show('adminRequests.rejected', { name: request.name });
    });
  }

  protected redispatch(request: AdminMediaRequest): Promise<void> {
    return this.act(request, async () => {
      await this.api.redispatch(request.id);
      this.notifier.show('adminRequests.redispatched', { name: request.name });
    });
  }

  protected verify(request: AdminMediaRequest): Promise<void> {
    return this.act(request, async () => {
      try {
        await this.api.verifyIngest(request.id);
        this.notifier.show('adminRequests.ingested', { name: request.name });
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'NOT_IN_LIBRARY') throw error;
        const progress = (error.details as { progress?: { have?: number; total?: number } })
          ?.progress;
        this.notifier.show('adminRequests.notInLibrary', {
          have: progress?.have ?? 0,
          total: progress?.total ?? 0,
        });
      }
    });
  }

  /** MoviePilot manual search and dispatch, in a dialog; the list reloads after a send. */
  protected async searchCandidates(request: AdminMediaRequest): Promise<void> {
    const ref = this.dialog.open<CandidatesDialog, AdminMediaRequest, CandidatesOutcome>(
      CandidatesDialog,
      { data: request, maxWidth: '720px', width: 'calc(100vw - 32px)' },
    );
    const outcome = await firstValueFrom(ref.afterClosed());
    if (outcome === 'unsupported') {
      this.searchSupported.set(false);
      this.notifier.show('adminRequests.candidates.unsupported');
    } else if (outcome === 'sent') {
      this.notifier.show('adminRequests.candidates.sent', { name: request.name });
      this.list.reload();
    }
  }

  protected async remove(request: AdminMediaRequest): Promise<void> {
    const confirmed = await openRequestDialog(this.dialog, {
      titleKey: 'adminRequests.delete.title',
      messageKey: 'adminRequests.delete.message',
      params: { name: request.name, user: request.requester.username },
      confirmKey: 'adminRequests.delete.confirm',
      destructive: true,
      art: request,
    });
    if (!confirmed) return;
    await this.act(request, async () => {
      await this.api.remove(request.id);
      this.notifier.show('adminRequests.deleted', { name: request.name });
    });
  }

  private async act(request: AdminMediaRequest, work: () => Promise<void>): Promise<void> {
    await this.acting.runFor(request.id, work, {
      // Failures are a snackbar on this page (the card has no error line).
      handle: (error) => {
        if (error instanceof ApiError && HANDLED_ELSEWHERE.has(error.code)) {
          this.notifier.show('adminRequests.handledElsewhere');
        } else {
          this.notifier.show('requests.actionFailed', {
            reason: this.errors.describe(error).message,
          });
        }
        return true;
      },
      after: () => this.list.reload(),
    });
  }
}
