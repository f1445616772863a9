import type { HttpTestingController } from '@angular/common/http/testing';
import type { ComponentFixture } from '@angular/core/testing';
import type { Router } from '@angular/router';
import { errorBody, settle, refusal } from '../../../testing/fixtures';
import { renderPage } from '../../../testing/page';
import type { DiscoverReply, TitleDetails } from '@usher/contracts';
import { aPage, aRequest, aResult } from '../../shared/requests/request-fixtures';
import NewRequest from './new-request';

const SEARCH = '/api/v1/metadata/search';
const CHECK = '/api/v1/media-requests/check-existing';
const CREATE = '/api/v1/media-requests';
/** The pause in typing after which the page searches (new-request.ts `DEBOUNCE_MS`). */
const DEBOUNCE_MS = 350;
const DISCOVER = '/api/v1/metadata/discover';
const TITLES = '/api/v1/metadata/titles/';
/** The title sheet of the series the flows pick (`aResult()`). */
const WINTER: TitleDetails = {
  ...aResult(),
  backdropPath: '/winter-wide.jpg',
  voteAverage: 7.94,
  runtime: 48,
  genres: ['Drama', 'Mystery'],
  status: 'Returning Series',
  cast: [
    { name: 'Ada Lind', character: 'Harbour master', profilePath: '/ada.jpg' },
    { name: 'Bo Marsh', character: '', profilePath: null },
  ],
  seasons: [
    {
      seasonNumber: 1,
      name: 'Season 1',
      episodeCount: 8,
      airDate: '2019-03-01',
      state: 'in_library',
    },
    { seasonNumber: 2, name: 'Season 2', episodeCount: 10, airDate: '2021-04-02', state: 'none' },
    { seasonNumber: 3, name: 'Season 3', episodeCount: 6, airDate: null, state: 'requested' },
  ],
  availability: { state: 'missing', ownRequestId: null },
};
const DUNE: TitleDetails = {
  ...WINTER,
  tmdbId: 438631,
  mediaType: 'movie',
  title: 'Dune',
  originalTitle: 'Dune',
  year: 2021,
  runtime: 155,
  genres: ['Science Fiction'],
  seasons: [],
  availability: { state: 'rejected', ownRequestId: '01936f6e-8a7b-7c3d-9e4f-00000000000c' },
};
const RAILS: DiscoverReply = {
  rails: [
    {
      rail: 'trending',
      data: [
        aResult({ availability: { state: 'missing', ownRequestId: null } }),
        aResult({
          tmdbId: 438631,
          mediaType: 'movie',
          title: 'Dune',
          year: 2021,
          availability: { state: 'rejected', ownRequestId: DUNE.availability.ownRequestId },
        }),
      ],
    },
    {
      rail: 'popular_movies',
      data: [
        aResult({
          tmdbId: 77,
          mediaType: 'movie',
          title: 'Harbour Lights',
          availability: { state: 'in_library', ownRequestId: null },
        }),
      ],
    },
    { rail: 'popular_tv', data: [] },
    {
      rail: 'upcoming',
      data: [
        aResult({
          tmdbId: 90,
          mediaType: 'movie',
          title: 'The Long Orbit',
          year: null,
          availability: { state: 'requested', ownRequestId: null },
        }),
      ],
    },
  ],
};

describe('NewRequest', () => {
  let fixture: ComponentFixture<NewRequest>;
  let http: HttpTestingController;
  let router: Router;
  let notifier: { show: jest.Mock };
  let dialogAnswers: unknown[];
  let root: HTMLElement;

  async function render(
    role: 'user' | 'admin' = 'user',
    expired = false,
    rails: DiscoverReply | [object, number] = { rails: [] },
  ): Promise<void> {
    ({ fixture, http, router, notifier, dialogAnswers, root } = await renderPage(NewRequest, {
      user: { role, isExpired: expired },
      inputs: {},
    }));
    if (Array.isArray(rails)) await flush(DISCOVER, rails[0], rails[1]);
    else await flush(DISCOVER, rails);
  }

  const byTestId = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  /** Types `text` into the search box (no pause: the debounce clock does not move). */
  async function type(text: string): Promise<void> {
    const input = byTestId('search-input') as HTMLInputElement;
    input.value = text;
    input.dispatchEvent(new Event('input'));
    await fixture.whenStable();
  }

  /** Lets `ms` of the fake debounce clock pass, then lets the search it starts go out. */
  async function pause(ms: number): Promise<void> {
    jest.advanceTimersByTime(ms);
    await settle();
  }

  async function search(text: string): Promise<void> {
    await type(text);
    await pause(DEBOUNCE_MS);
  }

  async function flush(url: string, body: object | null, status = 200): Promise<void> {
    http.expectOne(url).flush(body, { status, statusText: 'x' });
    await settle();
    await settle();
    await fixture.whenStable();
  }

  /** Searches "winter" and answers with `results`, one page of them. */
  async function searchWinter(results: object[] = [aResult()]): Promise<void> {
    await search('winter');
    await flush(`${SEARCH}?query=winter&type=multi&page=1`, aPage(results));
  }

  async function pickSeason2(): Promise<void> {
    await searchWinter();
    byTestId('result-tv-1399')!.click();
    await fixture.whenStable();
    await flush(`${TITLES}tv/1399`, WINTER);
    // The chip's primary action (inside the option) takes the click, as in a browser.
    byTestId('season-2')!.querySelector<HTMLElement>('.mat-mdc-chip-action')!.click();
    await fixture.whenStable();
  }

  // The search debounce (rxjs debounceTime: setInterval and Date) runs on a fake clock, so no test
  // sleeps and none depends on how fast a loaded machine gets through the typing. setTimeout and
  // queueMicrotask stay real: Angular's zoneless scheduler and settle() run on them.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setTimeout', 'queueMicrotask'] }));

  afterEach(() => {
    jest.useRealTimers();
    // Title sheets a test opened without looking at their details.
    for (const pending of http.match((r) => r.url.startsWith(TITLES))) pending.flush(DUNE);
    http.verify();
  });

  it('should open on trending, popular and upcoming rails, every card badged, before any typing', async () => {
    await render('user', false, RAILS);
    http.expectNone((r) => r.url === SEARCH);
    const rails = [...root.querySelectorAll('[data-testid^="discover-"] h2')].map((h) =>
      h.textContent!.trim(),
    );
    // An empty rail is left out.
    expect(rails).toEqual(['Trending today', 'Popular movies', 'Coming soon']);
    const badge = (id: string) =>
      byTestId(id)!.querySelector('[data-testid="poster-badge"]')!.textContent!.trim();
    expect(badge('discover-trending-tv-1399')).toBe('Partly available');
    expect(badge('discover-trending-movie-438631')).toBe('Rejected');
    expect(badge('discover-popular_movies-movie-77')).toBe('In library');
    expect(badge('discover-upcoming-movie-90')).toBe('Requested');
    // The first rail's first posters are the page's largest paint: fetched at once.
    expect(
      byTestId('discover-trending-tv-1399')!.querySelector('img')!.getAttribute('fetchpriority'),
    ).toBe('high');
    expect(
      byTestId('discover-upcoming-movie-90')!.querySelector('img')!.getAttribute('loading'),
    ).toBe('lazy');
  });

  it('should open the title sheet from a rail card with year, runtime, rating, genres, cast and seasons', async () => {
    await render('user', false, RAILS);
    byTestId('discover-trending-tv-1399')!.click();
    await fixture.whenStable();
    expect(byTestId('request-sheet')!.querySelector('h2')!.textContent).toBe('Winter Harbour');
    expect(byTestId('discover-trending-tv-1399')!.getAttribute('aria-pressed')).toBe('true');
    await flush(`${TITLES}tv/1399`, WINTER);
    const meta = byTestId('title-meta')!;
    expect([...meta.children].map((c) => c.textContent!.trim())).toEqual(['2019', '48 min', '7.9']);
    expect(meta.querySelector('.rating')!.getAttribute('aria-label')).toBe('Rated 7.9 out of 10');
    expect([...root.querySelectorAll('.genres li')].map((g) => g.textContent!.trim())).toEqual([
      'Drama',
      'Mystery',
    ]);
    const cast = byTestId('title-cast')!;
    expect(cast.textContent).toContain('Ada Lind');
    expect(cast.textContent).toContain('Harbour master');
    expect(cast.querySelector('img')!.getAttribute('src')).toBe(
      'https://image.tmdb.org/t/p/w185/ada.jpg',
    );
    // Each season says what the library and the requests hold; "nothing yet" says nothing.
    const season = (n: number) => byTestId(`season-${n}`)!;
    expect(season(1).textContent).toContain('In library');
    expect(season(2).querySelector('.season-state')).toBeNull();
    expect(season(3).textContent).toContain('Requested');
    expect(byTestId('sheet-availability')!.textContent!.trim()).toBe('Partly available');

    // Another card: the last title's details never show under the new heading.
    byTestId('discover-trending-movie-438631')!.click();
    await fixture.whenStable();
    expect(byTestId('title-facts')).toBeNull();
    await flush(`${TITLES}movie/438631`, DUNE);
    expect(byTestId('title-meta')!.textContent).toContain('2 h 35 min');
    expect(byTestId('season-picker')).toBeNull();
    expect(byTestId('sheet-availability')!.textContent!.trim()).toBe('Rejected');
  });

  it('should request from a rail card: check-existing, then create with the title', async () => {
    await render('user', false, RAILS);
    byTestId('discover-popular_movies-movie-77')!.click();
    await fixture.whenStable();
    await flush(`${TITLES}movie/77`, { ...DUNE, tmdbId: 77, title: 'Harbour Lights' });
    byTestId('submit-request')!.click();
    await settle();
    http.expectOne(CHECK).flush({ inLibrary: false, detection: 'ok' });
    await settle();
    await settle();
    const create = http.expectOne(CREATE);
    expect(create.request.body).toMatchObject({
      type: 'MOVIE',
      tmdbId: 77,
      name: 'Harbour Lights',
    });
    create.flush({ outcome: 'created', request: aRequest() });
    await settle();
  });

  it('should put the rails away while results show, and bring them back when the box is cleared', async () => {
    await render('user', false, RAILS);
    await searchWinter();
    expect(byTestId('discover')).toBeNull();
    await search('');
    expect(byTestId('discover')).not.toBeNull();
    // The rails were kept: no second read.
    http.expectNone(DISCOVER);
  });

  it('should say discovery is not configured, with the settings link for admins', async () => {
    await render('admin', false, [errorBody('NOT_CONFIGURED', 'x', { system: 'tmdb' }), 503]);
    const state = byTestId('search-not-configured')!;
    expect(state.querySelector('a')!.getAttribute('href')).toBe('/admin/settings?group=metadata');
  });

  it('should badge the results with the availability the search answered', async () => {
    await render();
    await search('winter');
    const own = '01936f6e-8a7b-7c3d-9e4f-00000000000b';
    await flush(`${SEARCH}?query=winter&type=multi&page=1`, {
      data: [
        aResult({ availability: { state: 'approved', ownRequestId: own } }),
        // Another member's request: the state only, no id and no name (issue 14).
        aResult({
          tmdbId: 77,
          mediaType: 'movie',
          title: 'Harbour Lights',
          availability: { state: 'in_library', ownRequestId: null },
        }),
        aResult({
          tmdbId: 78,
          mediaType: 'movie',
          title: 'Harbour Nights',
          availability: { state: 'none', ownRequestId: null },
        }),
        // Signed-out answers carry no availability: no badge, no other request for it.
        aResult({ tmdbId: 79, mediaType: 'movie', title: 'Harbour Days' }),
      ],
      total: 4,
      page: 1,
      pageSize: 20,
    });
    const badge = (id: string) =>
      byTestId(id)!.querySelector<HTMLElement>('[data-testid="poster-badge"]');
    expect(badge('result-tv-1399')!.textContent!.trim()).toBe('Approved');
    expect(badge('result-tv-1399')!.classList).toContain('tone-info');
    expect(badge('result-tv-1399')!.querySelector('mat-icon')).not.toBeNull();
    expect(badge('result-movie-77')!.textContent!.trim()).toBe('In library');
    expect(badge('result-movie-78')).toBeNull();
    expect(badge('result-movie-79')).toBeNull();
  });

  it("should send the picked result's backdrop with the request", async () => {
    await render();
    await searchWinter([aResult({ tmdbId: 77, mediaType: 'movie', backdropPath: '/wide.jpg' })]);
    byTestId('result-movie-77')!.click();
    await fixture.whenStable();
    byTestId('submit-request')!.click();
    await settle();
    http.expectOne(CHECK).flush({ inLibrary: false, detection: 'ok' });
    await settle();
    await settle();
    const create = http.expectOne(CREATE);
    expect(create.request.body).toMatchObject({ tmdbId: 77, backdropPath: '/wide.jpg' });
    create.flush({ outcome: 'created', request: aRequest() });
    await settle();
  });

  it("should draw the picked title's backdrop behind the sheet heading, and the plain one without", async () => {
    await render();
    await search('harbour');
    await flush(`${SEARCH}?query=harbour&type=multi&page=1`, {
      data: [
        aResult({ tmdbId: 77, mediaType: 'movie', backdropPath: '/wide.jpg' }),
        aResult({ tmdbId: 78, mediaType: 'movie', title: 'No Backdrop', backdropPath: null }),
      ],
      total: 2,
      page: 1,
      pageSize: 20,
    });
    byTestId('result-movie-77')!.click();
    await fixture.whenStable();
    const img = byTestId('sheet-backdrop') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('https://image.tmdb.org/t/p/w780/wide.jpg');
    expect(img.getAttribute('alt')).toBe('');
    expect(root.querySelector('.sheet-head')!.classList).toContain('with-backdrop');
    // A failed image falls back to the plain header.
    img.dispatchEvent(new Event('error'));
    await fixture.whenStable();
    expect(byTestId('sheet-backdrop')).toBeNull();
    expect(root.querySelector('.sheet-head')!.classList).not.toContain('with-backdrop');

    byTestId('result-movie-78')!.click();
    await fixture.whenStable();
    expect(byTestId('sheet-backdrop')).toBeNull();
    expect(root.querySelector('.sheet-head')!.classList).not.toContain('with-backdrop');
    expect(root.querySelector('.sheet-head h2')!.textContent).toBe('No Backdrop');
  });

  it('should search only from 2 characters, once per pause in typing', async () => {
    await render();
    await search('w');
    http.expectNone((r) => r.url === SEARCH);
    // Typing with pauses shorter than the debounce: nothing is searched yet, though more than
    // the debounce has passed since the first keystroke.
    for (const text of ['wi', 'win', 'wint']) {
      await type(text);
      await pause(DEBOUNCE_MS - 1);
      http.expectNone((r) => r.url === SEARCH);
    }
    // The pause reaches the debounce: the full text is searched, once.
    await pause(1);
    await flush(`${SEARCH}?query=wint&type=multi&page=1`, {
      data: [],
      total: 0,
      page: 1,
      pageSize: 20,
    });
    expect(byTestId('search-empty')!.textContent).toContain('Try the original title or the year');
    // A longer pause with nothing typed searches nothing more.
    await pause(DEBOUNCE_MS * 3);
    http.expectNone((r) => r.url === SEARCH);
  });

  it('should close the sheet when a new search no longer lists the picked title', async () => {
    await render();
    await pickSeason2();
    expect(byTestId('request-sheet')).not.toBeNull();
    // Same title still listed: the sheet stays.
    await search('winter harbour');
    await flush(`${SEARCH}?query=winter%20harbour&type=multi&page=1`, {
      data: [aResult()],
      total: 1,
      page: 1,
      pageSize: 20,
    });
    expect(byTestId('request-sheet')).not.toBeNull();
    await search('zzzz');
    await flush(`${SEARCH}?query=zzzz&type=multi&page=1`, {
      data: [],
      total: 0,
      page: 1,
      pageSize: 20,
    });
    expect(byTestId('search-empty')).not.toBeNull();
    expect(byTestId('request-sheet')).toBeNull();
  });

  it('should request the picked season after check-existing, then go to the list', async () => {
    await render();
    await pickSeason2();
    expect(byTestId('request-sheet')!.textContent).toContain('Season 2 · 10 episodes · 2021');
    const note = byTestId('request-note') as HTMLTextAreaElement;
    note.value = 'Subtitles please';
    note.dispatchEvent(new Event('input'));
    byTestId('submit-request')!.click();
    await settle();
    const check = http.expectOne(CHECK);
    expect(check.request.body).toEqual({ type: 'TV', tmdbId: 1399, season: 2 });
    check.flush({ inLibrary: false, detection: 'ok' });
    await settle();
    await settle();
    const create = http.expectOne(CREATE);
    expect(create.request.body).toEqual({
      type: 'TV',
      tmdbId: 1399,
      season: 2,
      name: 'Winter Harbour',
      year: 2019,
      posterPath: '/winter.jpg',
      note: 'Subtitles please',
    });
    create.flush(
      { outcome: 'created', request: aRequest() },
      { status: 201, statusText: 'Created' },
    );
    await settle();
    await settle();
    expect(notifier.show).toHaveBeenCalledWith('requests.newRequest.created', {
      name: 'Winter Harbour',
    });
    expect(router.navigate).toHaveBeenCalledWith(['/console/requests']);
  });

  it('should ask before requesting a title already in the library, and send confirmExisting', async () => {
    await render();
    await pickSeason2();
    dialogAnswers.push(true);
    byTestId('submit-request')!.click();
    await settle();
    http.expectOne(CHECK).flush({
      inLibrary: true,
      detection: 'ok',
      summary: {
        matchType: 'season',
        mediaItemId: 'm',
        seasons: [2],
        episodeCount: 4,
        message: 'Season 2: 4 episodes',
      },
    });
    await settle();
    await settle();
    const create = http.expectOne(CREATE);
    expect(create.request.body).toMatchObject({ season: 2, confirmExisting: true });
    create.flush({ outcome: 'auto_approved', request: aRequest({ status: 'APPROVED' }) });
    await settle();
    await settle();
    expect(notifier.show).toHaveBeenCalledWith('requests.newRequest.autoApproved', {
      name: 'Winter Harbour',
    });
  });

  it('should not create when the member backs out of the library confirmation', async () => {
    await render();
    await pickSeason2();
    dialogAnswers.push(undefined);
    byTestId('submit-request')!.click();
    await settle();
    http.expectOne(CHECK).flush({ inLibrary: true, detection: 'ok' });
    await settle();
    await settle();
    http.expectNone(CREATE);
    expect(router.navigate).not.toHaveBeenCalledWith(['/console/requests']);
  });

  it('should point to an active request instead of creating a duplicate', async () => {
    await render();
    await pickSeason2();
    byTestId('submit-request')!.click();
    await settle();
    http.expectOne(CHECK).flush({
      inLibrary: false,
      detection: 'ok',
      activeRequest: { id: aRequest().id, status: 'APPROVED' },
    });
    await settle();
    await fixture.whenStable();
    http.expectNone(CREATE);
    expect(byTestId('already-requested')!.textContent).toContain(
      'There is already a request for this.',
    );
  });

  it('should show a request-limit refusal in the sheet', async () => {
    await render();
    await pickSeason2();
    byTestId('submit-request')!.click();
    await settle();
    http.expectOne(CHECK).flush({ inLibrary: false, detection: 'ok' });
    await settle();
    await settle();
    http.expectOne(CREATE).flush(...refusal(422, 'REQUEST_LIMIT_REACHED'));
    await settle();
    await fixture.whenStable();
    expect(byTestId('submit-error')!.textContent).toContain('You have reached your request limit');
  });

  it('should explain that search is not configured, with a settings link for admins', async () => {
    await render('admin');
    await search('winter');
    await flush(
      `${SEARCH}?query=winter&type=multi&page=1`,
      errorBody('NOT_CONFIGURED', 'x', { system: 'tmdb' }),
      503,
    );
    const state = byTestId('search-not-configured')!;
    expect(state.textContent).toContain('the metadata provider is not configured');
    expect(state.querySelector('a')!.getAttribute('href')).toBe('/admin/settings?group=metadata');
  });

  it('should keep the submit disabled for an expired member', async () => {
    await render('user', true);
    await pickSeason2();
    expect((byTestId('submit-request') as HTMLButtonElement).disabled).toBe(true);
    expect(byTestId('expired-note')).not.toBeNull();
  });
});
