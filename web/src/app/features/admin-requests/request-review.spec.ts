import type { HttpTestingController } from '@angular/common/http/testing';
import type { ComponentFixture } from '@angular/core/testing';
import type { Router } from '@angular/router';
import { errorBody, settle } from '../../../testing/fixtures';
import { renderPage } from '../../../testing/page';
import { aPage, anAdminRequest } from '../../shared/requests/request-fixtures';
import RequestReview from './request-review';

const BASE = '/api/v1/admin/media-requests';
const ID = anAdminRequest().id;

describe('RequestReview', () => {
  let fixture: ComponentFixture<RequestReview>;
  let http: HttpTestingController;
  let router: Router;
  let notifier: { show: jest.Mock };
  let dialogAnswers: unknown[];
  let root: HTMLElement;

  async function render(inputs: Record<string, string> = {}): Promise<void> {
    ({ fixture, http, router, notifier, dialogAnswers, root } = await renderPage(RequestReview, {
      user: { role: 'admin' },
      inputs,
    }));
  }

  const byTestId = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  async function flushList(body: object | null, query = 'page=1&pageSize=20'): Promise<void> {
    http.expectOne(`${BASE}?${query}`).flush(body);
    await settle();
    await fixture.whenStable();
  }

  async function answer(url: string, body: object | null, status = 200): Promise<void> {
    await settle();
    http.expectOne(url).flush(body, { status, statusText: 'x' });
    await settle();
    await settle();
  }

  afterEach(() => http.verify());

  it('should pass every filter from the URL to the API and show requester and automation state', async () => {
    await render({
      status: 'APPROVED',
      type: 'TV',
      search: 'winter',
      userId: '01936f6e-8a7b-7c3d-9e4f-0123456789ab',
      automationError: 'true',
    });
    await flushList(
      aPage([
        anAdminRequest({
          status: 'APPROVED',
          automation: {
            dispatchedAt: null,
            ref: null,
            error: 'MoviePilot answered 500',
            candidatesSearchedAt: null,
          },
        }),
      ]),
      'page=1&pageSize=20&status=APPROVED&type=TV&search=winter&userId=01936f6e-8a7b-7c3d-9e4f-0123456789ab&hasAutomationError=true',
    );
    expect(byTestId('request-requester')!.textContent).toContain('alice');
    expect(byTestId('automation-error')!.textContent).toContain('MoviePilot answered 500');
    expect(byTestId('redispatch-request')).not.toBeNull();
    expect(byTestId('verify-request')).not.toBeNull();
    expect(byTestId('approve-request')).toBeNull();
  });

  it('should approve a pending request in one click and reload', async () => {
    await render({ status: 'PENDING' });
    await flushList(aPage([anAdminRequest()]), 'page=1&pageSize=20&status=PENDING');
    byTestId('approve-request')!.click();
    await answer(`${BASE}/${ID}/approve`, { request: anAdminRequest({ status: 'APPROVED' }) });
    await flushList(aPage([], 0), 'page=1&pageSize=20&status=PENDING');
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.approved', {
      name: 'Winter Harbour',
    });
  });

  // Issue 36: a double click sent two approvals (the second answered 409 and a wrong toast).
  it('should send one approval for a double click on Approve', async () => {
    await render({ status: 'PENDING' });
    await flushList(aPage([anAdminRequest()]), 'page=1&pageSize=20&status=PENDING');
    byTestId('approve-request')!.click();
    byTestId('approve-request')!.click();
    await answer(`${BASE}/${ID}/approve`, { request: anAdminRequest({ status: 'APPROVED' }) });
    await flushList(aPage([], 0), 'page=1&pageSize=20&status=PENDING');
    expect(notifier.show).toHaveBeenCalledTimes(1);
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.approved', {
      name: 'Winter Harbour',
    });
  });

  it('should reject with the typed reason and send nothing when backed out', async () => {
    await render();
    await flushList(aPage([anAdminRequest()]));
    dialogAnswers.push(undefined);
    byTestId('reject-request')!.click();
    await settle();
    http.expectNone(`${BASE}/${ID}/reject`);
    dialogAnswers.push('Not available in this region');
    byTestId('reject-request')!.click();
    await settle();
    const post = http.expectOne(`${BASE}/${ID}/reject`);
    expect(post.request.body).toEqual({ reason: 'Not available in this region' });
    post.flush({
      request: anAdminRequest({ status: 'REJECTED', rejectReason: 'Not available in this region' }),
    });
    await settle();
    await settle();
    await flushList(aPage([]));
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.rejected', {
      name: 'Winter Harbour',
    });
  });

  it('should say "already handled elsewhere" on a state conflict and reload', async () => {
    await render();
    await flushList(aPage([anAdminRequest()]));
    byTestId('approve-request')!.click();
    await answer(
      `${BASE}/${ID}/approve`,
      errorBody('REQUEST_STATE_CHANGED', 'x', { status: 'APPROVED' }),
      409,
    );
    await flushList(aPage([anAdminRequest({ status: 'APPROVED' })]));
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.handledElsewhere');
  });

  it('should report the progress found when verify-ingest finds it missing', async () => {
    await render();
    await flushList(aPage([anAdminRequest({ status: 'APPROVED' })]));
    byTestId('verify-request')!.click();
    await answer(
      `${BASE}/${ID}/verify-ingest`,
      errorBody('NOT_IN_LIBRARY', 'x', { progress: { have: 3, total: 10, last: 'S02E03' } }),
      422,
    );
    await flushList(aPage([anAdminRequest({ status: 'APPROVED' })]));
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.notInLibrary', {
      have: 3,
      total: 10,
    });
  });

  it('should mark a request ingested after a successful verify', async () => {
    await render();
    await flushList(aPage([anAdminRequest({ status: 'APPROVED' })]));
    byTestId('verify-request')!.click();
    await answer(`${BASE}/${ID}/verify-ingest`, {
      request: anAdminRequest({ status: 'INGESTED', ingestedAt: '2026-11-21T10:00:00.000Z' }),
      progress: null,
    });
    await flushList(aPage([anAdminRequest({ status: 'INGESTED' })]));
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.ingested', {
      name: 'Winter Harbour',
    });
    expect(byTestId('request-status')!.textContent).toContain('In library');
  });

  it('should redispatch and delete after confirmation', async () => {
    await render();
    const failed = anAdminRequest({
      status: 'APPROVED',
      automation: { dispatchedAt: null, ref: null, error: 'timeout', candidatesSearchedAt: null },
    });
    await flushList(aPage([failed]));
    byTestId('redispatch-request')!.click();
    await answer(`${BASE}/${ID}/redispatch`, {
      request: { ...failed, automation: { ...failed.automation, error: null } },
    });
    await flushList(aPage([failed]));
    dialogAnswers.push(true);
    byTestId('delete-request')!.click();
    await settle();
    const del = http.expectOne(`${BASE}/${ID}`);
    expect(del.request.method).toBe('DELETE');
    del.flush(null, { status: 204, statusText: 'No Content' });
    await settle();
    await settle();
    await flushList(aPage([]));
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.redispatched', {
      name: 'Winter Harbour',
    });
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.deleted', { name: 'Winter Harbour' });
  });

  it('should offer Clear filters when nothing matches', async () => {
    await render({ search: 'zzz' });
    await flushList(aPage([], 0), 'page=1&pageSize=20&search=zzz');
    (byTestId('review-empty')!.querySelector('button') as HTMLButtonElement).click();
    expect(router.navigate).toHaveBeenCalledWith([], {
      queryParams: {
        page: null,
        status: null,
        type: null,
        search: null,
        userId: null,
        automationError: null,
      },
      queryParamsHandling: 'merge',
    });
  });

  it('should open the candidate search for an approved request and hide it once unsupported', async () => {
    await render();
    await flushList(aPage([anAdminRequest({ status: 'APPROVED' })]));
    dialogAnswers.push('unsupported');
    byTestId('search-candidates')!.click();
    await settle();
    await fixture.whenStable();
    expect(notifier.show).toHaveBeenCalledWith('adminRequests.candidates.unsupported');
    expect(byTestId('search-candidates')).toBeNull();
    expect(byTestId('verify-request')).not.toBeNull();
  });
});
