import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import type { Session } from '@usher/contracts';
import { errorBody, settle } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import SessionsPage, { POLL_MS } from './sessions-page';
import { bitrate, clock, episodeCode, titleLines } from './session-view';

const URL = '/api/v1/admin/sessions';
const FETCHED = '2026-11-25T12:00:00.000Z';

function aSession(overrides: Partial<Session> = {}): Session {
  return {
    id: 's-movie',
    user: {
      mediaUserId: 'm1',
      name: 'alice',
      userId: '01936f6e-8a7b-7c3d-9e4f-0123456789ab',
      username: 'alice',
    },
    client: 'Emby Web',
    deviceName: 'Firefox',
    deviceId: 'alice-firefox',
    appVersion: '4.9.1',
    remoteAddress: '203.0.113.7',
    lastActivityAt: '2026-11-25T11:59:00.000Z',
    nowPlaying: {
      itemId: 'i1',
      name: 'Dune: Part Two',
      type: 'Movie',
      seriesName: null,
      season: null,
      episode: null,
      runtimeSeconds: 9960,
      posterUrl: '/api/v1/media/posters/i1?u=a&exp=1&sig=s',
    },
    playState: {
      positionSeconds: 2700,
      isPaused: false,
      playMethod: 'DirectPlay',
      progress: 2700 / 9960,
      transcoding: false,
      bitrate: null,
    },
    ...overrides,
  };
}

const episode = aSession({
  id: 's-episode',
  user: { mediaUserId: 'm2', name: 'bob' },
  client: 'Infuse',
  deviceName: 'Living Room Apple TV',
  nowPlaying: {
    itemId: 'i2',
    name: 'Hands',
    type: 'Episode',
    seriesName: 'The Bear',
    season: 1,
    episode: 2,
    runtimeSeconds: 1800,
  },
  playState: {
    positionSeconds: 720,
    isPaused: true,
    playMethod: 'Transcode',
    progress: 0.4,
    transcoding: true,
    bitrate: 8_000_000,
  },
});

const idle = aSession({ id: 's-idle', deviceName: 'Pixel 8', nowPlaying: null, playState: null });

describe('SessionsPage', () => {
  afterEach(() => {
    jest.useRealTimers();
    Object.defineProperty(document, 'hidden', { configurable: true, value: false });
  });

  async function render() {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(SessionsPage);
    await fixture.whenStable();
    const flush = async (body: object, status = 200) => {
      http.expectOne(URL).flush(body, status === 200 ? {} : { status, statusText: 'x' });
      await settle();
      await settle();
      await fixture.whenStable();
    };
    return { fixture, http, flush, root: fixture.nativeElement as HTMLElement };
  }

  it('should show each playing session as a card, with the idle ones listed after', async () => {
    const { root, flush, http } = await render();
    expect(root.querySelector('[aria-busy="true"]')).not.toBeNull();
    await flush({ data: [episode, aSession(), idle], fetchedAt: FETCHED });
    expect(root.querySelector('[data-testid="sessions-summary"]')!.textContent).toContain(
      '2 playing · 1 transcoding',
    );
    const cards = [...root.querySelectorAll('[data-testid="session"]')];
    expect(cards.map((c) => c.getAttribute('data-session'))).toEqual(['s-episode', 's-movie']);

    const [bear, dune] = cards as [Element, Element];
    expect(bear.querySelector('[data-testid="session-title"]')!.textContent).toBe('The Bear');
    expect(bear.querySelector('[data-testid="session-subtitle"]')!.textContent).toBe(
      'S01E02 · Hands',
    );
    expect(bear.querySelector('[data-testid="session-method"]')!.textContent).toContain(
      'Transcode · 8.0 Mbps',
    );
    expect(bear.querySelector('[data-testid="session-paused"]')).not.toBeNull();
    expect(bear.querySelector('[data-testid="session-position"]')!.textContent).toBe(
      '12:00 / 30:00',
    );
    // bob has no Usher account: no link.
    expect(bear.querySelector('[data-testid="session-user"] a')).toBeNull();
    expect(bear.textContent).toContain('Living Room Apple TV');

    expect(dune.querySelector('[data-testid="session-method"]')!.textContent).toContain(
      'Direct play',
    );
    expect(dune.querySelector('[data-testid="session-method"]')!.textContent).not.toContain('Mbps');
    expect(dune.querySelector('[data-testid="session-paused"]')).toBeNull();
    expect(dune.querySelector('img')!.getAttribute('src')).toBe(
      '/api/v1/media/posters/i1?u=a&exp=1&sig=s',
    );
    expect(dune.querySelector('[data-testid="session-user"] a')!.getAttribute('href')).toBe(
      '/admin/users/01936f6e-8a7b-7c3d-9e4f-0123456789ab',
    );
    expect(dune.textContent).toContain('203.0.113.7');
    expect(dune.textContent).toContain('4.9.1');
    expect(dune.querySelector('mat-progress-bar')!.getAttribute('aria-valuenow')).toMatch(/^27\./);

    const idleRows = root.querySelectorAll('[data-testid="idle-session"]');
    expect(idleRows.length).toBe(1);
    expect(idleRows[0]!.textContent).toContain('Pixel 8');
    http.verify();
  });

  it('should say nobody is watching when nothing plays', async () => {
    const { root, flush } = await render();
    await flush({ data: [], fetchedAt: FETCHED });
    expect(root.querySelector('[data-testid="sessions-empty"]')!.textContent).toContain(
      'Nobody is watching right now',
    );
    expect(root.querySelector('[data-testid="session"]')).toBeNull();
  });

  it('should explain a missing media server and stop polling', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'queueMicrotask'] });
    const { root, flush, http } = await render();
    await flush(errorBody('NOT_CONFIGURED', 'x', { system: 'media_server' }), 503);
    const box = root.querySelector('[data-testid="sessions-not-configured"]')!;
    expect(box.querySelector('a')!.getAttribute('href')).toBe('/admin/settings?group=media_server');
    jest.advanceTimersByTime(POLL_MS * 3);
    http.expectNone(URL);
  });

  it('should poll every 10 s, stop while the tab is hidden or paused, and resume', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'queueMicrotask'] });
    const { root, flush, http, fixture } = await render();
    await flush({ data: [aSession()], fetchedAt: FETCHED });

    jest.advanceTimersByTime(POLL_MS);
    // The session ended: the next read no longer lists it.
    await flush({ data: [], fetchedAt: FETCHED });
    expect(root.querySelector('[data-testid="session"]')).toBeNull();

    Object.defineProperty(document, 'hidden', { configurable: true, value: true });
    document.dispatchEvent(new Event('visibilitychange'));
    jest.advanceTimersByTime(POLL_MS * 3);
    http.expectNone(URL);

    // Visible again: read at once, then every 10 s.
    Object.defineProperty(document, 'hidden', { configurable: true, value: false });
    document.dispatchEvent(new Event('visibilitychange'));
    await flush({ data: [aSession()], fetchedAt: FETCHED });
    expect(root.querySelectorAll('[data-testid="session"]').length).toBe(1);

    const pause = root.querySelector<HTMLButtonElement>('[data-testid="sessions-pause"]')!;
    pause.click();
    await fixture.whenStable();
    expect(pause.getAttribute('aria-pressed')).toBe('true');
    expect(root.querySelector('[data-testid="sessions-live"]')!.textContent).toContain(
      'Auto-refresh paused',
    );
    jest.advanceTimersByTime(POLL_MS * 3);
    http.expectNone(URL);

    root.querySelector<HTMLButtonElement>('[data-testid="sessions-refresh"]')!.click();
    await flush({ data: [], fetchedAt: FETCHED });

    pause.click();
    await flush({ data: [], fetchedAt: FETCHED });
    jest.advanceTimersByTime(POLL_MS);
    await flush({ data: [], fetchedAt: FETCHED });
  });

  it('should keep the last list when a refresh fails, and say so', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'queueMicrotask'] });
    const { root, flush } = await render();
    await flush({ data: [aSession()], fetchedAt: FETCHED });
    jest.advanceTimersByTime(POLL_MS);
    await flush(errorBody('UPSTREAM_UNAVAILABLE', 'x', { system: 'media_server' }), 502);
    expect(root.querySelectorAll('[data-testid="session"]').length).toBe(1);
    expect(root.querySelector('.stale')!.textContent).toContain('the latest refresh failed');
  });
});

describe('session view helpers', () => {
  it('should format episode codes, clocks and bitrates', () => {
    expect(episodeCode(episode.nowPlaying!)).toBe('S01E02');
    expect(episodeCode(aSession().nowPlaying!)).toBeNull();
    expect(clock(59)).toBe('0:59');
    expect(clock(3723)).toBe('1:02:03');
    expect(bitrate(8_000_000, 'en')).toBe('8.0 Mbps');
    expect(bitrate(850_000, 'en')).toBe('850 kbps');
    expect(titleLines(aSession().nowPlaying!)).toEqual({ title: 'Dune: Part Two', subtitle: null });
    expect(titleLines({ ...episode.nowPlaying!, season: null })).toEqual({
      title: 'The Bear',
      subtitle: 'Hands',
    });
  });
});
