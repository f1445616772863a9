import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import type { AdminMediaRequest } from '@usher/contracts';
import { errorBody, settle } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { anAdminRequest } from '../../shared/requests/request-fixtures';
import { CandidatesDialog, formatSize } from './candidates-dialog';

const BASE = '/api/v1/admin/media-requests';
const CANDIDATE = {
  index: 0,
  title: 'Winter.Harbour.S02.1080p.WEB-DL',
  site: 'tracker-a',
  sizeBytes: 12 * 1024 ** 3,
  seeders: 42,
  peers: 3,
  publishedAt: '2026-11-18T10:00:00.000Z',
  volumeFactor: null,
};

describe('CandidatesDialog', () => {
  let fixture: ComponentFixture<CandidatesDialog>;
  let http: HttpTestingController;
  let ref: { close: jest.Mock };
  let root: HTMLElement;

  async function open(request: AdminMediaRequest): Promise<void> {
    ref = { close: jest.fn() };
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        { provide: MatDialogRef, useValue: ref },
        { provide: MAT_DIALOG_DATA, useValue: request },
      ],
    });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(CandidatesDialog);
    root = fixture.nativeElement as HTMLElement;
    await fixture.whenStable();
  }

  async function flush(url: string, body: object, status = 200): Promise<void> {
    http.expectOne(url).flush(body, { status, statusText: 'x' });
    await settle();
    await settle();
    await fixture.whenStable();
  }

  const byTestId = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  afterEach(() => http.verify());

  it('should search a season request at once and send the chosen candidate', async () => {
    const request = anAdminRequest({ status: 'APPROVED' });
    await open(request);
    const search = http.expectOne(`${BASE}/${request.id}/search`);
    expect(search.request.body).toEqual({});
    search.flush({ candidates: [CANDIDATE], searchedAt: '2026-11-22T08:00:00.000Z' });
    await settle();
    await fixture.whenStable();
    const row = byTestId('candidate-0')!;
    expect(row.textContent).toContain('Winter.Harbour.S02.1080p.WEB-DL');
    expect(row.textContent).toContain('12 GB');
    expect(row.textContent).toContain('42 seeders');
    row.querySelector('button')!.click();
    await settle();
    const dispatch = http.expectOne(`${BASE}/${request.id}/dispatch`);
    expect(dispatch.request.body).toEqual({ candidateIndex: 0 });
    dispatch.flush({ request, accepted: true });
    await settle();
    await settle();
    expect(ref.close).toHaveBeenCalledWith('sent');
  });

  it('should ask for the season of a whole-series request before searching', async () => {
    const request = anAdminRequest({ status: 'APPROVED', season: 0 });
    await open(request);
    http.expectNone(`${BASE}/${request.id}/search`);
    const season = byTestId('candidates-season') as HTMLInputElement;
    season.value = '3';
    season.dispatchEvent(new Event('input'));
    await fixture.whenStable();
    (season.closest('.season')!.querySelector('button') as HTMLButtonElement).click();
    await settle();
    const search = http.expectOne(`${BASE}/${request.id}/search`);
    expect(search.request.body).toEqual({ season: 3 });
    search.flush({ candidates: [], searchedAt: '2026-11-22T08:00:00.000Z' });
    await settle();
    await fixture.whenStable();
    expect(byTestId('candidates-empty')).not.toBeNull();
  });

  it('should close as unsupported when the automation tool is not MoviePilot', async () => {
    const request = anAdminRequest({ status: 'APPROVED' });
    await open(request);
    await flush(
      `${BASE}/${request.id}/search`,
      errorBody('NOT_SUPPORTED', 'x', { system: 'automation' }),
      503,
    );
    expect(ref.close).toHaveBeenCalledWith('unsupported');
  });

  it('should ask to search again when the candidate is gone', async () => {
    const request = anAdminRequest({ status: 'APPROVED' });
    await open(request);
    await flush(`${BASE}/${request.id}/search`, {
      candidates: [CANDIDATE],
      searchedAt: '2026-11-22T08:00:00.000Z',
    });
    byTestId('candidate-0')!.querySelector('button')!.click();
    await settle();
    await flush(`${BASE}/${request.id}/dispatch`, errorBody('CANDIDATE_NOT_FOUND'), 404);
    expect(byTestId('candidates-error')!.textContent).toContain('Search again');
    expect(byTestId('candidates-search')).not.toBeNull();
    expect(ref.close).not.toHaveBeenCalled();
  });

  it('should format sizes per language', () => {
    expect(formatSize(1.5 * 1024 ** 3, 'en')).toBe('1.5 GB');
    expect(formatSize(700 * 1024 ** 2, 'en')).toBe('700 MB');
    expect(formatSize(null, 'en')).toBeNull();
  });
});
