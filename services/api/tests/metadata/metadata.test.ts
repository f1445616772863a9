import { metadataSearchReplySchema, tvSeasonsReplySchema } from '@usher/contracts';
import { tmdbCache } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINE } from '../support/database.js';
import { errorOf, startHarness, type Harness } from '../requests/harness.js';

describe(`metadata search and seasons (${ENGINE})`, () => {
  let h: Harness;
  let internal: Record<string, string>;
  beforeAll(async () => {
    h = await startHarness();
    internal = { 'x-internal-secret': h.t.config.INTERNAL_API_SECRET };
  });
  afterAll(() => h.close());

  const tmdbCalls = (path: string) => h.tmdb.requests.filter((r) => r.path.includes(path)).length;

  it('should search movies and series, drop persons, and cache the answer', async () => {
    const res = await h.t.call('get', '/api/v1/metadata/search?query=dune');
    expect(res.status).toBe(200);
    const reply = metadataSearchReplySchema.parse(await res.json());
    expect(reply).toMatchObject({ page: 1, pageSize: 20 });
    expect(reply.data.length).toBeGreaterThan(0);
    expect(reply.data.every((r) => r.mediaType === 'movie' || r.mediaType === 'tv')).toBe(true);
    expect(reply.data.find((r) => r.tmdbId === 693134)).toMatchObject({
      mediaType: 'movie',
      year: 2024,
      posterPath: expect.stringMatching(/^\//),
      // The backdrop passes through for the request sheet's header (issue 14).
      backdropPath: '/backdrop-693134.jpg',
    });
    // Without one TMDB sends null, and so does the API (the web draws its fallback).
    expect(reply.data.find((r) => r.tmdbId === 1170608)?.backdropPath).toBeNull();
    // A person hit exists in TMDB's multi answer for this query but never reaches members.
    expect(reply.data.some((r) => r.title === 'Dune Harrow')).toBe(false);

    const before = tmdbCalls('/search/multi');
    const again = await h.t.call('get', '/api/v1/metadata/search?query=DUNE ');
    expect(metadataSearchReplySchema.parse(await again.json())).toEqual(reply);
    expect(tmdbCalls('/search/multi')).toBe(before);
    const keys = (await h.t.context.db.select().from(tmdbCache)).map((r) => r.key);
    expect(keys.some((k) => /^search:multi:en-US:0:[0-9a-f]{40}:1$/.test(k))).toBe(true);
  });

  it('should search by type and pass the page to TMDB', async () => {
    const tv = metadataSearchReplySchema.parse(
      await (await h.t.call('get', '/api/v1/metadata/search?query=severance&type=tv')).json(),
    );
    expect(tv.data.map((r) => r.tmdbId)).toContain(95396);
    expect(tv.data.every((r) => r.mediaType === 'tv')).toBe(true);
    await h.t.call('get', '/api/v1/metadata/search?query=film&type=movie&page=2');
    const last = h.tmdb.requests.filter((r) => r.path.includes('/search/movie')).at(-1)!;
    expect(last.query).toMatchObject({ query: 'film', page: '2' });
  });

  it('should refuse bad queries with 400', async () => {
    for (const q of [
      '',
      'query=',
      `query=${'x'.repeat(101)}`,
      'query=a&type=person',
      'query=a&page=51',
    ]) {
      const res = await h.t.call('get', `/api/v1/metadata/search?${q}`);
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    }
  });

  it('should list seasons without specials, and 404 an unknown series', async () => {
    const res = await h.t.call('get', '/api/v1/metadata/tv/1399/seasons');
    const reply = tvSeasonsReplySchema.parse(await res.json());
    expect(reply).toMatchObject({ tmdbId: 1399, name: 'Game of Thrones', status: 'Ended' });
    expect(reply.seasons.map((s) => s.seasonNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(reply.seasons[0]).toMatchObject({ episodeCount: 10, airDate: '2011-04-17' });

    expect(await errorOf(await h.t.call('get', '/api/v1/metadata/tv/424242/seasons'))).toEqual({
      status: 404,
      code: 'METADATA_NOT_FOUND',
      message: 'TMDB knows no such series',
    });
  });

  it('should answer 503 without a TMDB key and 502 when TMDB is down', async () => {
    const off = h.appWith({ TMDB_API_KEY: '' });
    expect(await errorOf(await off.call('get', '/api/v1/metadata/search?query=x'))).toMatchObject({
      status: 503,
      code: 'NOT_CONFIGURED',
      details: { system: 'tmdb' },
    });
    await h.tmdb.faults.down();
    try {
      const res = await h.t.call('get', '/api/v1/metadata/search?query=never-cached');
      expect(await errorOf(res)).toMatchObject({
        status: 502,
        code: 'UPSTREAM_UNAVAILABLE',
        details: { system: 'tmdb' },
      });
      // Cached answers still work while TMDB is away.
      expect((await h.t.call('get', '/api/v1/metadata/tv/1399/seasons')).status).toBe(200);
    } finally {
      await h.tmdb.faults.up();
    }
  });

  it('should serve the internal twins with the secret only', async () => {
    const res = await h.t.call('get', '/api/v1/internal/metadata/search?query=dune', {
      headers: internal,
    });
    expect(metadataSearchReplySchema.parse(await res.json()).data.length).toBeGreaterThan(0);
    const seasons = await h.t.call('get', '/api/v1/internal/metadata/tv/95396/seasons', {
      headers: internal,
    });
    expect(
      tvSeasonsReplySchema.parse(await seasons.json()).seasons.map((s) => s.seasonNumber),
    ).toEqual([1, 2, 3]);
    const wrong = await h.t.call('get', '/api/v1/internal/metadata/search?query=dune', {
      headers: { 'x-internal-secret': 'nope' },
    });
    expect(await errorOf(wrong)).toMatchObject({ status: 401, code: 'INTERNAL_AUTH_FAILED' });
  });
});

describe(`metadata rate limit (${ENGINE})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('should allow 30 public calls a minute per IP, and not limit the bot', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await h.t.call('get', `/api/v1/metadata/search?query=q${i % 3}`);
      expect(res.status).toBe(200);
    }
    const limited = await h.t.call('get', '/api/v1/metadata/tv/1399/seasons');
    const error = await errorOf(limited);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const bot = await h.t.call('get', '/api/v1/internal/metadata/tv/1399/seasons', {
      headers: { 'x-internal-secret': h.t.config.INTERNAL_API_SECRET },
    });
    expect(bot.status).toBe(200);
  });
});

describe(`metadata cache lifetime (${ENGINE})`, () => {
  const HOUR = 3_600_000;
  let h: Harness;
  let app: TestApp;
  /** The app's clock (ModuleContext.now); the cache compares `expires_at` with it. */
  let clock: Date;
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    h = await startHarness();
    clock = new Date();
    // Same database and fakes, with an injected clock and a search lifetime unlike the default.
    app = createTestApp(h.database.handle, {
      config: h.t.config,
      settingsEnv: { ...h.env, METADATA_CACHE_HOURS: '2' },
      now: () => clock,
    });
  });
  afterAll(async () => {
    await h.settle(app);
    await h.close();
  });

  const tmdbCalls = (path: string) => h.tmdb.requests.filter((r) => r.path.includes(path)).length;
  const internal = () => ({ 'x-internal-secret': h.t.config.INTERNAL_API_SECRET });
  const get = async (path: string) => {
    // The internal twin: same service and cache, no per-IP limit to trip over.
    const res = await app.call('get', `/api/v1/internal${path}`, { headers: internal() });
    expect([path, res.status]).toEqual([path, 200]);
    return res.json();
  };
  const expiryOf = async (prefix: string) => {
    const rows = await h.t.context.db.select().from(tmdbCache);
    const row = rows.find((r) => r.key.startsWith(prefix));
    if (!row) throw new Error(`no cache entry ${prefix}`);
    return row.expiresAt.getTime();
  };

  it('should serve a search from cache until METADATA_CACHE_HOURS pass, then ask TMDB again', async () => {
    const search = '/metadata/search?query=severance&type=tv';
    const first = metadataSearchReplySchema.parse(await get(search));
    expect(first.data.length).toBeGreaterThan(0);
    expect(tmdbCalls('/search/tv')).toBe(1);
    const stored = clock.getTime();
    expect(await expiryOf('search:tv:')).toBe(stored + 2 * HOUR);

    advance(2 * HOUR - 1000);
    expect(metadataSearchReplySchema.parse(await get(search))).toEqual(first);
    expect(tmdbCalls('/search/tv')).toBe(1);

    advance(2000); // now one second past expires_at
    expect(metadataSearchReplySchema.parse(await get(search))).toEqual(first);
    expect(tmdbCalls('/search/tv')).toBe(2);
    // The refetched answer replaced the entry with a new lifetime from the current clock.
    expect(await expiryOf('search:tv:')).toBe(clock.getTime() + 2 * HOUR);
    await get(search);
    expect(tmdbCalls('/search/tv')).toBe(2);
  });

  it('should keep series details 24 h and empty searches 1 h', async () => {
    const seasons = '/metadata/tv/1399/seasons';
    const before = tmdbCalls('/tv/1399');
    const first = tvSeasonsReplySchema.parse(await get(seasons));
    expect(tmdbCalls('/tv/1399')).toBe(before + 1);
    expect(await expiryOf('tv:en-US:1399')).toBe(clock.getTime() + 24 * HOUR);

    const nothing = '/metadata/search?query=zzqx-no-such-title&type=movie';
    const empty = metadataSearchReplySchema.parse(await get(nothing));
    expect(empty).toMatchObject({ data: [], total: 0 });
    const emptyCalls = tmdbCalls('/search/movie');
    expect(await expiryOf('search:movie:')).toBe(clock.getTime() + HOUR);

    advance(HOUR + 1000);
    await get(nothing);
    expect(tmdbCalls('/search/movie')).toBe(emptyCalls + 1);
    expect(tvSeasonsReplySchema.parse(await get(seasons))).toEqual(first);
    expect(tmdbCalls('/tv/1399')).toBe(before + 1);

    advance(23 * HOUR);
    await get(seasons);
    expect(tmdbCalls('/tv/1399')).toBe(before + 2);
    await get(seasons);
    expect(tmdbCalls('/tv/1399')).toBe(before + 2);
  });
});
