import { TestBed } from '@angular/core/testing';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { provideTestHttp, provideTestI18n } from '../../../testing/providers';
import { RequestDialog } from './request-dialog';
import { aRequest, aResult } from './request-fixtures';
import {
  backdropUrl,
  parseRequestTab,
  posterUrl,
  requestAvailability,
  resultAvailability,
  seasonText,
} from './request-status';

describe('request view helpers', () => {
  it('should accept only known status tabs from the URL', () => {
    expect(parseRequestTab('INGESTED')).toBe('INGESTED');
    expect(parseRequestTab('DELETED')).toBe('');
    expect(parseRequestTab(undefined)).toBe('');
  });

  it("should say a request's availability: requested, approved, in library or missing", () => {
    expect(requestAvailability(aRequest({ status: 'PENDING' }))).toBe('requested');
    expect(requestAvailability(aRequest({ status: 'APPROVED' }))).toBe('approved');
    expect(requestAvailability(aRequest({ status: 'INGESTED' }))).toBe('inLibrary');
    const full = { have: 10, total: 10, last: 'S02E10' };
    expect(requestAvailability(aRequest({ status: 'INGESTED', ingestProgress: full }))).toBe(
      'inLibrary',
    );
    const partial = { have: 4, total: 10, last: 'S02E04' };
    expect(requestAvailability(aRequest({ status: 'INGESTED', ingestProgress: partial }))).toBe(
      'missing',
    );
    expect(requestAvailability(aRequest({ status: 'REJECTED' }))).toBeNull();
  });

  it("should badge a search result from the API's availability, and not without one", () => {
    const badge = (state: 'in_library' | 'missing' | 'approved' | 'requested' | 'none') =>
      resultAvailability(aResult({ availability: { state, ownRequestId: null } }));
    expect(badge('in_library')).toBe('inLibrary');
    expect(badge('missing')).toBe('missing');
    expect(badge('approved')).toBe('approved');
    expect(badge('requested')).toBe('requested');
    expect(badge('none')).toBeNull();
    // A signed-out search has no availability at all.
    expect(resultAvailability(aResult())).toBeNull();
  });

  it('should build wide backdrop URLs, and none without a path', () => {
    expect(backdropUrl('https://image.tmdb.org/t/p', '/b.jpg')).toBe(
      'https://image.tmdb.org/t/p/w780/b.jpg',
    );
    expect(backdropUrl('https://image.tmdb.org/t/p', undefined)).toBeNull();
  });

  it('should build TMDB poster URLs as base + size + path, and none without a path', () => {
    expect(posterUrl('http://127.0.0.1:9/t/p/', '/a.jpg')).toBe(
      'http://127.0.0.1:9/t/p/w342/a.jpg',
    );
    expect(posterUrl('https://image.tmdb.org/t/p', null)).toBeNull();
  });

  it('should name the season of TV requests only', () => {
    expect(seasonText({ type: 'TV', season: 0 })).toEqual({
      key: 'requests.card.allSeasons',
      season: 0,
    });
    expect(seasonText({ type: 'TV', season: 3 })).toEqual({
      key: 'requests.card.season',
      season: 3,
    });
    expect(seasonText({ type: 'MOVIE', season: 0 })).toBeNull();
  });
});

describe('RequestDialog', () => {
  it('should require a non-blank reason before confirming, and close with the trimmed text', async () => {
    const ref = { close: jest.fn() };
    TestBed.configureTestingModule({
      providers: [
        ...provideTestI18n(),
        { provide: MatDialogRef, useValue: ref },
        {
          provide: MAT_DIALOG_DATA,
          useValue: {
            titleKey: 'adminRequests.reject.title',
            inputLabelKey: 'adminRequests.reject.reason',
            confirmKey: 'adminRequests.reject.confirm',
            params: { name: 'X' },
          },
        },
      ],
    });
    const fixture = TestBed.createComponent(RequestDialog);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const confirm = root.querySelector<HTMLButtonElement>('[data-testid="dialog-confirm"]')!;
    expect(confirm.disabled).toBe(true);
    const text = root.querySelector<HTMLTextAreaElement>('[data-testid="dialog-text"]')!;
    text.value = '   ';
    text.dispatchEvent(new Event('input'));
    await fixture.whenStable();
    expect(confirm.disabled).toBe(true);
    text.value = '  Not in HD  ';
    text.dispatchEvent(new Event('input'));
    await fixture.whenStable();
    confirm.click();
    expect(ref.close).toHaveBeenCalledWith('Not in HD');
  });

  function openWith(art?: { backdropPath?: string | null; posterPath: string | null }) {
    TestBed.configureTestingModule({
      providers: [
        ...provideTestI18n(),
        ...provideTestHttp(),
        { provide: MatDialogRef, useValue: { close: jest.fn() } },
        {
          provide: MAT_DIALOG_DATA,
          useValue: {
            titleKey: 'requests.cancel.title',
            confirmKey: 'requests.cancel.confirm',
            params: { name: 'X' },
            ...(art ? { art: { ...art, type: 'MOVIE' } } : {}),
          },
        },
      ],
    });
    return TestBed.createComponent(RequestDialog);
  }

  it("should top the dialog with the request's backdrop band and poster (issue 14)", async () => {
    const fixture = openWith({ backdropPath: '/wide.jpg', posterPath: '/p.jpg' });
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const band = root.querySelector<HTMLElement>('[data-testid="title-backdrop"]')!;
    expect(band.querySelector('img')!.getAttribute('src')).toMatch(/\/w780\/wide\.jpg$/);
    expect(root.querySelector('app-poster-image img')!.getAttribute('src')).toMatch(
      /\/w342\/p\.jpg$/,
    );
    // A failed image takes the band away: the plain heading stays.
    band.querySelector('img')!.dispatchEvent(new Event('error'));
    await fixture.whenStable();
    expect(root.querySelector('[data-testid="title-backdrop"]')).toBeNull();
    expect(root.querySelector('app-poster-image')).toBeNull();
  });

  it('should draw no band for a request without a backdrop', async () => {
    for (const art of [{ backdropPath: null, posterPath: '/p.jpg' }, undefined]) {
      TestBed.resetTestingModule();
      const fixture = openWith(art);
      await fixture.whenStable();
      const root = fixture.nativeElement as HTMLElement;
      expect(root.querySelector('[data-testid="title-backdrop"]')).toBeNull();
      expect(root.querySelector('h2')!.textContent).toContain('Cancel this request?');
    }
  });
});
