import { addDays, startFakeTmdb, type FakeTmdb } from '../../src/tmdb/index.js';

type Json = Record<string, unknown>;

describe('fake TMDB API', () => {
  let tmdb: FakeTmdb;
  const today = '2026-03-10';

  beforeAll(async () => {
    tmdb = await startFakeTmdb({ today });
  });
  afterAll(() => tmdb.close());
  afterEach(() => tmdb.faults.clear());

  const get = async (path: string, params: Record<string, string> = {}, bearer?: string) => {
    const query = new URLSearchParams(bearer ? params : { api_key: tmdb.apiKey, ...params });
    const response = await fetch(`${tmdb.apiBase}${path}?${query}`, {
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Json,
    };
  };

  it('should accept a v3 api_key and a v4 bearer token', async () => {
    const byKey = await get('/movie/438631');
    const byBearer = await get('/movie/438631', {}, tmdb.readToken);

    expect(byKey.status).toBe(200);
    expect(byBearer.status).toBe(200);
    expect(byBearer.body.title).toBe('Dune');
  });

  it('should answer 401 with status_code 7 for a wrong or missing key', async () => {
    const wrong = await get('/movie/438631', { api_key: 'nope' });
    const missing = await fetch(`${tmdb.apiBase}/movie/438631`);

    const body = {
      status_code: 7,
      status_message: 'Invalid API key: You must be granted a valid key.',
      success: false,
    };
    expect(wrong).toEqual(expect.objectContaining({ status: 401, body }));
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual(body);
  });

  it('should answer 404 with status_code 34 for unknown ids, seasons and paths', async () => {
    const notFound = {
      success: false,
      status_code: 34,
      status_message: 'The resource you requested could not be found.',
    };

    const movie = await get('/movie/1');
    const season = await get('/tv/1399/season/42');
    const path = await get('/discover/everything');

    expect([movie, season, path].map((r) => [r.status, r.body])).toEqual([
      [404, notFound],
      [404, notFound],
      [404, notFound],
    ]);
  });

  it('should label multi results with media_type and include people', async () => {
    const reply = await get('/search/multi', { query: 'dune', language: 'en-US', page: '1' });
    const results = reply.body.results as Json[];

    expect(results.map((r) => [r.media_type, r.id])).toEqual([
      ['movie', 693134],
      ['movie', 438631],
      ['movie', 1170608],
      ['person', 3300001],
    ]);
    expect(results[0]).toEqual(
      expect.objectContaining({ title: 'Dune: Part Two', release_date: '2024-02-27' }),
    );
    expect(results[3]).toEqual(
      expect.objectContaining({ name: 'Dune Harrow', known_for: expect.any(Array) }),
    );
  });

  it('should leave media_type out of movie and tv searches', async () => {
    const movies = await get('/search/movie', { query: 'dune', year: '2021' });
    const shows = await get('/search/tv', { query: 'thrones', first_air_date_year: '2011' });

    expect(movies.body.results).toEqual([
      expect.not.objectContaining({ media_type: expect.anything() }),
    ]);
    expect((movies.body.results as Json[])[0]!.id).toBe(438631);
    expect((shows.body.results as Json[]).map((r) => [r.id, r.name, r.media_type])).toEqual([
      [1399, 'Game of Thrones', undefined],
    ]);
  });

  it('should hide adult titles unless include_adult is true', async () => {
    const hidden = await get('/search/movie', { query: 'dune nights', include_adult: 'false' });
    const shown = await get('/search/movie', { query: 'dune nights', include_adult: 'true' });

    expect(hidden.body.total_results).toBe(0);
    expect((shown.body.results as Json[]).map((r) => r.id)).toEqual([9100001]);
  });

  it('should page 20 results at a time with total_pages and total_results', async () => {
    const first = await get('/search/movie', { query: 'harbor lights', page: '1' });
    const second = await get('/search/movie', { query: 'harbor lights', page: '2' });
    const beyond = await get('/search/movie', { query: 'harbor lights', page: '501' });

    expect(first.body).toEqual(
      expect.objectContaining({ page: 1, total_pages: 2, total_results: 25 }),
    );
    expect(first.body.results).toHaveLength(20);
    expect(second.body.results).toHaveLength(5);
    expect(beyond.status).toBe(400);
    expect(beyond.body.status_code).toBe(22);
  });

  it('should pick zh-CN titles and fall back to the default title, empty overview', async () => {
    const zh = await get('/search/multi', { query: '沙丘', language: 'zh-CN' });
    const untranslated = await get('/movie/14337', { language: 'zh-CN' });

    expect((zh.body.results as Json[])[0]).toEqual(
      expect.objectContaining({ title: '沙丘2', original_title: 'Dune: Part Two' }),
    );
    expect(untranslated.body).toEqual(expect.objectContaining({ title: 'Primer', overview: '' }));
  });

  it('should send an empty release_date for an unreleased movie', async () => {
    const reply = await get('/movie/1170608');

    expect(reply.body).toEqual(
      expect.objectContaining({ release_date: '', status: 'In Production', runtime: 0 }),
    );
  });

  it('should describe a running show: specials, future dates, next episode', async () => {
    const reply = await get('/tv/95396', { append_to_response: 'external_ids', language: 'en-US' });
    const seasons = reply.body.seasons as Json[];

    expect(seasons.map((s) => [s.season_number, s.episode_count, s.name])).toEqual([
      [0, 1, 'Specials'],
      [1, 9, 'Season 1'],
      [2, 10, 'Season 2'],
      [3, 0, 'Season 3'],
    ]);
    expect(seasons[3]!.air_date).toBeNull();
    expect(reply.body).toEqual(
      expect.objectContaining({
        in_production: true,
        number_of_seasons: 3,
        last_air_date: today,
        last_episode_to_air: expect.objectContaining({ season_number: 2, episode_number: 6 }),
        next_episode_to_air: expect.objectContaining({
          air_date: addDays(today, 7),
          episode_number: 7,
        }),
        external_ids: expect.objectContaining({ tvdb_id: 371980, imdb_id: 'tt11280740' }),
      }),
    );
  });

  it('should leave external_ids out unless appended, and allow a null tvdb_id', async () => {
    const plain = await get('/tv/9200001');
    const appended = await get('/tv/9200001', { append_to_response: 'external_ids' });

    expect(plain.body.external_ids).toBeUndefined();
    expect((appended.body.external_ids as Json).tvdb_id).toBeNull();
  });

  it('should list a season with episodes, air dates and localised names', async () => {
    const reply = await get('/tv/95396/season/2', { language: 'zh-CN' });
    const episodes = reply.body.episodes as Json[];

    expect(reply.body).toEqual(expect.objectContaining({ season_number: 2, name: '第 2 季' }));
    expect(episodes).toHaveLength(10);
    expect(episodes[0]).toEqual(
      expect.objectContaining({
        episode_number: 1,
        air_date: addDays(today, -35),
        name: '第 1 集',
      }),
    );
    expect(episodes[9]).toEqual(
      expect.objectContaining({
        air_date: addDays(today, 28),
        runtime: null,
        episode_type: 'finale',
      }),
    );
  });

  it('should serve season 0 specials', async () => {
    const reply = await get('/tv/1399/season/0');

    expect(reply.body).toEqual(expect.objectContaining({ season_number: 0, name: 'Specials' }));
    expect(reply.body.episodes).toHaveLength(3);
  });

  it('should answer 429 with Retry-After when rate limiting is injected', async () => {
    tmdb.rateLimit(1, 2);

    const limited = await get('/movie/438631');
    const next = await get('/movie/438631');

    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.body.status_code).toBe(25);
    expect(next.status).toBe(200);
  });

  it('should record each API request with its query and status', async () => {
    await get('/movie/438631', { language: 'zh-CN' });

    expect(tmdb.requests.at(-1)).toEqual(
      expect.objectContaining({
        method: 'GET',
        path: '/3/movie/438631',
        query: { api_key: tmdb.apiKey, language: 'zh-CN' },
        status: 200,
      }),
    );
  });

  it('should answer TMDB 5xx bodies while failing', async () => {
    tmdb.faults.fail(503);

    const failing = await get('/movie/438631');

    expect(failing.status).toBe(503);
    expect(failing.body).toEqual({
      success: false,
      status_code: 9,
      status_message: 'Service offline: This service is temporarily offline, try again later.',
    });
  });
  it('should list trending titles with media_type, people only on all, and 404 a bad window', async () => {
    const all = await get('/trending/all/week');
    const movies = await get('/trending/movie/day');
    const badType = await get('/trending/songs/week');
    const badWindow = await get('/trending/all/month');

    const types = (all.body.results as Json[]).map((r) => r.media_type);
    expect(new Set(types)).toEqual(new Set(['movie', 'tv', 'person']));
    expect(all.body).toEqual(
      expect.objectContaining({
        page: 1,
        total_pages: expect.any(Number),
        total_results: expect.any(Number),
      }),
    );
    expect((movies.body.results as Json[]).every((r) => r.media_type === 'movie')).toBe(true);
    // Unreleased and adult titles never trend.
    const ids = (all.body.results as Json[]).map((r) => r.id);
    expect(ids).not.toContain(1170608);
    expect(ids).not.toContain(1311031);
    expect(ids).not.toContain(9100001);
    for (const bad of [badType, badWindow]) {
      expect(bad).toEqual(expect.objectContaining({ status: 404 }));
      expect(bad.body.status_code).toBe(34);
    }
  });

  it('should list popular movies and series without media_type, by popularity, paged', async () => {
    const movies = await get('/movie/popular');
    const second = await get('/movie/popular', { page: '2' });
    const shows = await get('/tv/popular', { language: 'zh-CN' });
    const badPage = await get('/movie/popular', { page: '0' });

    const results = movies.body.results as Json[];
    expect(results).toHaveLength(20);
    expect(results.every((r) => r.media_type === undefined)).toBe(true);
    const popularity = results.map((r) => r.popularity as number);
    expect(popularity).toEqual([...popularity].sort((a, b) => b - a));
    expect(second.body.page).toBe(2);
    expect((second.body.results as Json[]).length).toBeGreaterThan(0);
    expect((shows.body.results as Json[]).map((r) => r.name)).toContain('人生切割术');
    expect(badPage.status).toBe(400);
    expect(badPage.body.status_code).toBe(22);
  });

  it('should list upcoming movies after today with the dates window', async () => {
    const upcoming = await get('/movie/upcoming');

    expect(upcoming.body.dates).toEqual({ minimum: today, maximum: addDays(today, 21) });
    expect((upcoming.body.results as Json[]).map((r) => r.id)).toEqual([1311031]);
    expect((upcoming.body.results as Json[])[0]!.release_date).toBe(addDays(today, 21));
  });

  it('should append credits with the cast in billing order and their characters', async () => {
    const dune = await get('/movie/438631', { append_to_response: 'credits' });
    const severance = await get('/tv/95396', { append_to_response: 'external_ids,credits' });
    const plain = await get('/movie/438631');

    const cast = (dune.body.credits as { cast: Json[] }).cast;
    expect(cast[0]).toEqual(
      expect.objectContaining({ name: 'Timothée Chalamet', character: 'Paul Atreides', order: 0 }),
    );
    expect((severance.body.credits as { cast: Json[] }).cast[0]).toEqual(
      expect.objectContaining({ name: 'Adam Scott', character: 'Mark Scout' }),
    );
    expect(severance.body.external_ids).toBeDefined();
    expect(plain.body.credits).toBeUndefined();
  });
});
