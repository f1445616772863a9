import type { HttpTestingController } from '@angular/common/http/testing';
import type { ComponentFixture } from '@angular/core/testing';
import { errorBody, settle, refusal } from '../../../testing/fixtures';
import { renderPage } from '../../../testing/page';
import { aPage, aRequest } from '../../shared/requests/request-fixtures';
import MyRequests from './my-requests';

const LIST = '/api/v1/media-requests';

describe('MyRequests', () => {
  let fixture: ComponentFixture<MyRequests>;
  let http: HttpTestingController;
  let notifier: { show: jest.Mock };
  let dialogAnswers: unknown[];
  let dialogData: unknown[];
  let root: HTMLElement;

  async function render(inputs: { status?: string; page?: string } = {}, expired = false) {
    ({ fixture, http, notifier, dialogAnswers, dialogData, root } = await renderPage(MyRequests, {
      user: { isExpired: expired },
      inputs,
    }));
  }

  const byTestId = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  async function flushList(body: object | null, url = `${LIST}?page=1&pageSize=20`): Promise<void> {
    http.expectOne(url).flush(body);
    await settle();
    await fixture.whenStable();
  }

  afterEach(() => http.verify());

  it('should list the requests of the status tab with its total', async () => {
    await render({ status: 'REJECTED' });
    await flushList(
      aPage([aRequest({ status: 'REJECTED', rejectReason: 'Not available in HD' })], 1),
      `${LIST}?page=1&pageSize=20&status=REJECTED`,
    );
    expect(byTestId('tab-REJECTED')!.getAttribute('aria-current')).toBe('page');
    expect(byTestId('tab-total')!.textContent).toContain('1');
    const card = byTestId(`request-${aRequest().id}`)!;
    expect(card.textContent).toContain('Winter Harbour');
    expect(card.textContent).toContain('Season 2');
    expect(card.textContent).toContain('Rejected');
    expect(byTestId('reject-reason')!.textContent).toContain('Not available in HD');
    expect(byTestId('resubmit-request')).not.toBeNull();
    expect(byTestId('cancel-request')).toBeNull();
    // A rejected request says nothing about the title's availability.
    expect(card.querySelector('[data-testid="poster-badge"]')).toBeNull();
  });

  it("should badge each poster with the title's availability (icon and text)", async () => {
    await render();
    const second = '01936f6e-8a7b-7c3d-9e4f-00000000000b';
    await flushList(
      aPage([
        aRequest({ status: 'PENDING' }),
        aRequest({
          id: second,
          status: 'INGESTED',
          ingestProgress: { have: 4, total: 10, last: 'S02E04' },
        }),
      ]),
    );
    const badgeOf = (id: string) =>
      byTestId(`request-${id}`)!.querySelector<HTMLElement>('[data-testid="poster-badge"]')!;
    expect(badgeOf(aRequest().id).textContent!.trim()).toBe('Requested');
    expect(badgeOf(aRequest().id).classList).toContain('tone-warning');
    expect(badgeOf(aRequest().id).querySelector('mat-icon')).not.toBeNull();
    expect(badgeOf(second).textContent!.trim()).toBe('Partly available');
    expect(badgeOf(second).classList).toContain('tone-warning');
  });

  it('should show ingest progress and "All seasons" for a whole series', async () => {
    await render();
    await flushList(
      aPage([
        aRequest({
          season: 0,
          status: 'APPROVED',
          ingestProgress: { have: 7, total: 10, last: 'S01E07' },
        }),
      ]),
    );
    expect(root.textContent).toContain('All seasons');
    expect(byTestId('ingest-progress')!.textContent).toContain('7 / 10 episodes');
  });

  it('should say which status is empty and offer all requests', async () => {
    await render({ status: 'INGESTED' });
    await flushList(aPage([], 0), `${LIST}?page=1&pageSize=20&status=INGESTED`);
    expect(byTestId('requests-empty')!.textContent).toContain('No In library requests.');
  });

  it('should cancel a pending request after confirmation and reload', async () => {
    await render();
    await flushList(aPage([aRequest()]));
    dialogAnswers.push(true);
    byTestId('cancel-request')!.click();
    await settle();
    const del = http.expectOne(`${LIST}/${aRequest().id}`);
    expect(del.request.method).toBe('DELETE');
    del.flush(null, { status: 204, statusText: 'No Content' });
    await settle();
    await fixture.whenStable();
    await flushList(aPage([]));
    expect(notifier.show).toHaveBeenCalledWith('requests.cancel.done');
  });

  it('should not cancel when the confirmation is dismissed', async () => {
    await render();
    await flushList(aPage([aRequest()]));
    dialogAnswers.push(undefined);
    byTestId('cancel-request')!.click();
    await settle();
    http.expectNone(`${LIST}/${aRequest().id}`);
    expect(notifier.show).not.toHaveBeenCalled();
  });

  it('should resubmit with the note, confirming an existing title with confirmExisting', async () => {
    await render();
    const rejected = aRequest({ status: 'REJECTED', rejectReason: 'No' });
    await flushList(aPage([rejected]));
    dialogAnswers.push('Season 2 is out now', true);
    byTestId('resubmit-request')!.click();
    await settle();
    const first = http.expectOne(`${LIST}/${rejected.id}/resubmit`);
    expect(first.request.body).toEqual({ note: 'Season 2 is out now' });
    first.flush(
      errorBody('ALREADY_IN_LIBRARY', 'In library', {
        summary: {
          matchType: 'season',
          mediaItemId: 'x',
          seasons: [2],
          episodeCount: 3,
          message: 'Season 2: 3 episodes',
        },
      }),
      { status: 409, statusText: 'Conflict' },
    );
    await settle();
    await settle();
    expect(dialogData[1]).toMatchObject({
      detail: 'Season 2: 3 episodes',
      confirmKey: 'requests.existing.submitAnyway',
    });
    const second = http.expectOne(`${LIST}/${rejected.id}/resubmit`);
    expect(second.request.body).toEqual({ note: 'Season 2 is out now', confirmExisting: true });
    second.flush(
      { outcome: 'created', request: aRequest({ retryFromId: rejected.id }) },
      { status: 201, statusText: 'Created' },
    );
    await settle();
    await fixture.whenStable();
    await flushList(aPage([]));
    expect(notifier.show).toHaveBeenCalledWith('requests.resubmit.done');
  });

  it('should disable New request and Resubmit for an expired member, but keep Cancel', async () => {
    await render({}, true);
    await flushList(
      aPage([
        aRequest({ id: '01936f6e-8a7b-7c3d-9e4f-00000000000b', status: 'REJECTED' }),
        aRequest(),
      ]),
    );
    expect(byTestId('expired-note')).not.toBeNull();
    expect(byTestId('new-request')!.getAttribute('aria-disabled')).toBe('true');
    expect((byTestId('resubmit-request') as HTMLButtonElement).disabled).toBe(true);
    expect((byTestId('cancel-request') as HTMLButtonElement).disabled).toBe(false);
  });

  it('should show a load failure with Retry', async () => {
    await render();
    http.expectOne(`${LIST}?page=1&pageSize=20`).flush(...refusal(500, 'INTERNAL_ERROR'));
    await settle();
    await fixture.whenStable();
    expect(byTestId('requests-error')!.textContent).toContain('Reference: req-123');
    (byTestId('requests-error')!.querySelector('button') as HTMLButtonElement).click();
    await fixture.whenStable();
    await flushList(aPage([]));
    expect(byTestId('requests-error')).toBeNull();
  });
});
