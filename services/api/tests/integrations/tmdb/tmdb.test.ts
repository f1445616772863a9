import { startFakeTmdb, type FakeTmdb } from '@usher/testkit';
import { TmdbAdapter } from '../../../src/integrations/tmdb/adapter.js';
import { isReadToken, retryAfterMs } from '../../../src/integrations/tmdb/client.js';
import { createTmdb, TmdbFactory } from '../../../src/integrations/tmdb/factory.js';
import type { TmdbSettings } from '../../../src/integrations/tmdb/types.js';
import { integrationDeps, integrationError, MapSettings } from '../support.js';

describe('TMDB adapter against the fake', () => {
  let fake: FakeTmdb;

  beforeAll(async () => {
    fake = await startFakeTmdb();
  });
  afterAll(() => fake.close());
  afterEach(async () => {
    await fake.faults.clear();
    fake.rateLimit(0);
    fake.requests.length = 0;
  });

  const settings = (over: Partial<TmdbSettings> = {}): TmdbSettings => ({
    apiKey: fake.apiKey,
    language: 'en-US',
    includeAdult: false,
    apiBase: fake.apiBase,
    ...over,
  });

  it('should send a v3 key as api_key with language, and drop people', async () => {
    const tmdb = new TmdbAdapter(settings());

    const page = await tmdb.searchMulti('dune');

    const request = fake.requests.at(-1)!;
    expect(request.query).toMatchObject({
      api_key: fake.apiKey,
      language: 'en-US',
      include_adult: 'false',
      page: '1',
    });
    expect(request.headers.authorization).toBeUndefined();
    expect(page.results.map((r) => r.mediaType)).not.toContain('person');
    expect(page.results.find((r) => r.id === 438631)).toMatchObject({
      mediaType: 'movie',
      title: 'Dune',
      date: '2021-09-15',
      year: 2021,
    });
    // Unreleased: an empty release date becomes null, and so does the year.
    expect(page.results.find((r) => r.id === 1170608)).toMatchObject({ date: null, year: null });
  });

  it('should send a v4 read token as Bearer and never as api_key', async () => {
    expect(isReadToken(fake.readToken)).toBe(true);
    const tmdb = new TmdbAdapter(settings({ apiKey: fake.readToken, language: 'zh-CN' }));

    const movie = await tmdb.movie(438631);

    const request = fake.requests.at(-1)!;
    expect(request.headers.authorization).toBe(`Bearer ${fake.readToken}`);
    expect(request.query.api_key).toBeUndefined();
    expect(movie).toMatchObject({ title: '沙丘', year: 2021, runtime: 155, imdbId: 'tt1160419' });
  });

  it('should read series with their TVDB id, and seasons with their episodes', async () => {
    const tmdb = new TmdbAdapter(settings());

    const show = await tmdb.tv(1399);
    const season = await tmdb.season(1399, 1);
    const searched = await tmdb.searchTv('thrones', 2011);

    expect(fake.requests[0]!.query.append_to_response).toBe('external_ids');
    expect(show).toMatchObject({
      name: 'Game of Thrones',
      tvdbId: 121361,
      year: 2011,
      posterPath: '/got-poster.jpg',
    });
    expect(show.seasons[0]).toMatchObject({ seasonNumber: 0 });
    expect(season.episodes.length).toBeGreaterThan(0);
    expect(season.episodes[0]).toMatchObject({ seasonNumber: 1, episodeNumber: 1 });
    expect(fake.requests[2]!.query.first_air_date_year).toBe('2011');
    expect(searched.results[0]).toMatchObject({ mediaType: 'tv', id: 1399 });
    expect((await tmdb.tv(9200001)).tvdbId).toBeNull();
  });

  it('should report a wrong key as auth without leaking it anywhere', async () => {
    const { deps, logs } = integrationDeps();
    const wrong = 'wrongwrongwrongwrongwrongwrong12';
    const tmdb = new TmdbAdapter(settings({ apiKey: wrong }), deps);

    const error = await integrationError(tmdb.searchMovie('dune'));

    expect(error).toMatchObject({
      kind: 'auth',
      message: 'TMDB rejected the API key',
      status: 401,
    });
    expect(error.upstreamMessage).toMatch(/^status_code 7: /);
    expect(JSON.stringify({ ...error, m: error.message })).not.toContain(wrong);
    expect(logs.text()).not.toContain(wrong);
  });

  it('should read the discovery lists: trending without people, popular and upcoming typed', async () => {
    const tmdb = new TmdbAdapter(settings());

    const trending = await tmdb.trending('all', 'week');
    const trendingTv = await tmdb.trending('tv', 'day', 2);
    const movies = await tmdb.popular('movie');
    const shows = await tmdb.popular('tv');
    const upcoming = await tmdb.upcoming();

    expect(fake.requests.map((r) => r.path)).toEqual([
      '/3/trending/all/week',
      '/3/trending/tv/day',
      '/3/movie/popular',
      '/3/tv/popular',
      '/3/movie/upcoming',
    ]);
    expect(fake.requests[1]!.query).toMatchObject({ page: '2', language: 'en-US' });
    expect(trending.results.length).toBeGreaterThan(0);
    expect(new Set(trending.results.map((r) => r.mediaType))).toEqual(new Set(['movie', 'tv']));
    expect(trending.results.find((r) => r.id === 95396)).toMatchObject({
      mediaType: 'tv',
      title: 'Severance',
      year: 2022,
      backdropPath: '/severance-backdrop.jpg',
    });
    expect(trendingTv.results.every((r) => r.mediaType === 'tv')).toBe(true);
    expect(movies.results.every((r) => r.mediaType === 'movie')).toBe(true);
    expect(movies.totalResults).toBeGreaterThan(20);
    expect(shows.results.every((r) => r.mediaType === 'tv')).toBe(true);
    expect(upcoming.results.map((r) => r.id)).toEqual([1311031]);
    expect(upcoming.results[0]).toMatchObject({ mediaType: 'movie', title: 'The Long Orbit' });
  });

  it('should read the cast, backdrop, rating and genres when credits are asked for', async () => {
    const tmdb = new TmdbAdapter(settings());

    const movie = await tmdb.movie(438631, { credits: true });
    const show = await tmdb.tv(95396, { credits: true });
    const plain = await tmdb.tv(95396);

    expect(fake.requests.map((r) => r.query.append_to_response)).toEqual([
      'credits',
      'external_ids,credits',
      'external_ids',
    ]);
    expect(movie).toMatchObject({
      backdropPath: '/backdrop-438631.jpg',
      voteAverage: expect.any(Number),
      genres: ['Science Fiction', 'Adventure'],
      cast: [{ id: 1190668, name: 'Timothée Chalamet', character: 'Paul Atreides' }],
    });
    expect(show.cast).toEqual([
      { id: 17414, name: 'Adam Scott', character: 'Mark Scout', profilePath: '/adam-scott.jpg' },
    ]);
    expect(show.genres).toContain('Drama');
    expect(plain.cast).toBeUndefined();
  });

  it('should report an unknown id as not_found', async () => {
    const error = await integrationError(new TmdbAdapter(settings()).movie(999_999_999));

    expect(error).toMatchObject({ kind: 'not_found', status: 404 });
    expect(error.upstreamMessage).toMatch(/^status_code 34: /);
  });

  it('should wait Retry-After after a 429 and retry once', async () => {
    fake.rateLimit(1, 1);
    const started = Date.now();

    const page = await new TmdbAdapter(settings()).searchMovie('primer');

    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(page.results[0]).toMatchObject({ id: 14337 });
  });

  it('should give up after a second 429', async () => {
    fake.rateLimit(2, 0);

    const error = await integrationError(new TmdbAdapter(settings()).searchMovie('primer'));

    expect(error).toMatchObject({ kind: 'http_4xx', status: 429 });
    expect(fake.requests).toHaveLength(2);
  });

  it('should time out on a slow TMDB and fail as network when it is down', async () => {
    fake.faults.slow(400);
    const slow = await integrationError(
      createTmdb(settings(), {}, { timeoutMs: 150 }).searchMovie('dune'),
    );
    await fake.faults.clear();
    await fake.faults.down();
    const down = await integrationError(new TmdbAdapter(settings()).movie(438631));

    expect(slow.kind).toBe('timeout');
    expect(down.kind).toBe('network');
  });

  it('should probe with GET /configuration and report failures as data', async () => {
    const good = await new TmdbAdapter(settings()).probe();
    const bad = await new TmdbAdapter(settings({ apiKey: 'x'.repeat(32) })).probe();
    await fake.faults.down();
    const down = await new TmdbAdapter(settings({ apiKey: fake.readToken })).probe();

    expect(fake.requests[0]!.path).toBe('/3/configuration');
    expect(good).toEqual({
      ok: true,
      message: 'TMDB accepted the v3 API key (language en-US)',
      details: [],
    });
    expect(bad).toMatchObject({ ok: false, kind: 'auth', message: 'TMDB rejected the API key' });
    expect(down).toMatchObject({ ok: false, kind: 'network' });
  });

  it('should rebuild the adapter only when the settings change, and need a key', async () => {
    const values = new MapSettings({
      TMDB_API_KEY: fake.apiKey,
      TMDB_LANGUAGE: 'en-US',
      TMDB_INCLUDE_ADULT: false,
      TMDB_API_BASE: fake.apiBase,
    });
    const factory = new TmdbFactory(values);

    const first = await factory.get();
    const same = await factory.get();
    values.values.TMDB_LANGUAGE = 'zh-CN';
    const changed = await factory.get();
    values.values.TMDB_API_KEY = '';
    const missing = await integrationError(factory.get());

    expect(same).toBe(first);
    expect(changed).not.toBe(first);
    expect(changed.settings.language).toBe('zh-CN');
    expect(missing).toMatchObject({ kind: 'not_configured', system: 'tmdb' });
    expect(missing.toAppError().code).toBe('NOT_CONFIGURED');
  });

  it('should read Retry-After in seconds with a 1 s default', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('soon')).toBe(1000);
  });
});
