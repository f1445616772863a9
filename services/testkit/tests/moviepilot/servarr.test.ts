import { startFakeMoviePilot, type FakeMoviePilot } from '../../src/moviepilot/index.js';

type Json = Record<string, unknown>;

async function send(
  fake: FakeMoviePilot,
  path: string,
  init: { method?: string; key?: string | null; body?: unknown } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.key !== null) headers['X-Api-Key'] = init.key ?? fake.apiToken;
  const response = await fetch(`${fake.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : null) as Json | Json[] | null,
  };
}

describe('fake MoviePilot /api/v3 emulation', () => {
  let mp: FakeMoviePilot;

  beforeEach(async () => {
    mp = await startFakeMoviePilot();
  });
  afterEach(() => mp.close());

  it('should accept the API token as X-Api-Key or ?apikey= and refuse a wrong one', async () => {
    const header = await send(mp, '/api/v3/system/status');
    const query = await send(mp, `/api/v3/rootfolder?apikey=${mp.apiToken}`, { key: null });
    const wrong = await send(mp, '/api/v3/system/status', { key: 'nope' });

    expect(header.body).toEqual(expect.objectContaining({ appName: 'MoviePilot' }));
    expect(query.status).toBe(200);
    expect(wrong).toEqual({ status: 401, body: { detail: 'apikey校验不通过' } });
  });

  it('should match paths case-sensitively like FastAPI (qualityProfile only)', async () => {
    const camel = await send(mp, '/api/v3/qualityProfile');
    const lower = await send(mp, '/api/v3/qualityprofile');

    expect(camel.body).toEqual([expect.objectContaining({ id: 1 })]);
    expect(lower).toEqual({ status: 404, body: { detail: 'Not Found' } });
  });

  it('should add a movie by tmdbId and answer the same id for an existing one', async () => {
    const first = await send(mp, '/api/v3/movie', {
      method: 'POST',
      body: { title: 'Dune', year: 2021, tmdbId: 438631 },
    });
    const again = await send(mp, '/api/v3/movie', {
      method: 'POST',
      body: { title: 'Dune', year: 2021, tmdbId: 438631 },
    });

    expect(first).toEqual({ status: 200, body: { id: 1 } });
    expect(again).toEqual({ status: 200, body: { id: 1 } });
    expect(mp.state.subscriptions).toEqual([
      expect.objectContaining({ type: '电影', tmdbid: 438631 }),
    ]);
  });

  it('should subscribe monitored series seasons by tmdbId, without needing tvdbId', async () => {
    const body = {
      title: 'Game of Thrones',
      year: 2011,
      tmdbId: 1399,
      seasons: [
        { seasonNumber: 1, monitored: true },
        { seasonNumber: 2, monitored: false },
      ],
    };

    const added = await send(mp, '/api/v3/series', { method: 'POST', body });
    const again = await send(mp, '/api/v3/series', {
      method: 'POST',
      body: { ...body, seasons: [{ seasonNumber: 1, monitored: true }] },
    });

    expect(added).toEqual({ status: 200, body: { id: 1 } });
    expect(mp.state.subscriptions.map((s) => [s.type, s.tmdbid, s.season])).toEqual([
      ['电视剧', 1399, 1],
    ]);
    expect(again.body).toEqual({ id: 1 });
  });

  it('should answer 500 {detail} when the subscription cannot be added', async () => {
    mp.refuse(438631, '未识别到媒体信息');

    const reply = await send(mp, '/api/v3/movie', {
      method: 'POST',
      body: { title: 'Dune', tmdbId: 438631 },
    });

    expect(reply).toEqual({ status: 500, body: { detail: '添加订阅失败：未识别到媒体信息' } });
  });
});

describe('fake real Sonarr and Radarr', () => {
  it('should refuse a series without tvdbId or qualityProfileId with a 400', async () => {
    const sonarr = await startFakeMoviePilot({ mode: 'sonarr' });

    const reply = await send(sonarr, '/api/v3/series', {
      method: 'POST',
      body: { title: 'Game of Thrones', tmdbId: 1399, rootFolderPath: '/tv', seasons: [] },
    });
    await sonarr.close();

    expect(reply.status).toBe(400);
    expect(reply.body).toEqual([
      expect.objectContaining({
        propertyName: 'TvdbId',
        errorMessage: "'Tvdb Id' must be greater than '0'.",
        severity: 'error',
      }),
      expect.objectContaining({
        propertyName: 'QualityProfileId',
        errorCode: 'GreaterThanValidator',
      }),
    ]);
    expect(sonarr.state.servarrSeries).toEqual([]);
  });

  it('should create a series with 201, then refuse the duplicate as already added', async () => {
    const sonarr = await startFakeMoviePilot({ mode: 'sonarr' });
    const body = {
      title: 'Game of Thrones',
      tvdbId: 121361,
      tmdbId: 1399,
      qualityProfileId: 4,
      rootFolderPath: '/tv',
      seasonFolder: true,
      monitored: true,
      seasons: [{ seasonNumber: 1, monitored: true }],
      addOptions: { searchForMissingEpisodes: true },
    };

    const created = await send(sonarr, '/api/v3/series', { method: 'POST', body });
    const duplicate = await send(sonarr, '/api/v3/series', { method: 'POST', body });
    const lowerCasePath = await send(sonarr, '/API/V3/QualityProfile');
    const noKey = await send(sonarr, '/api/v3/series', { key: null });
    await sonarr.close();

    expect(created.status).toBe(201);
    expect(created.body).toEqual(
      expect.objectContaining({ id: 1, tvdbId: 121361, path: '/tv/Game of Thrones' }),
    );
    expect(duplicate.body).toEqual([
      expect.objectContaining({
        errorMessage: 'This series has already been added',
        errorCode: 'SeriesExistsValidator',
      }),
    ]);
    expect(lowerCasePath.status).toBe(200);
    expect(noKey).toEqual({ status: 401, body: null });
  });

  it('should serve movies only in Radarr mode and require tmdbId there', async () => {
    const radarr = await startFakeMoviePilot({ mode: 'radarr' });

    const series = await send(radarr, '/api/v3/series');
    const movie = await send(radarr, '/api/v3/movie', {
      method: 'POST',
      body: { title: 'Dune', qualityProfileId: 1, rootFolderPath: '/movies' },
    });
    await radarr.close();

    expect(series.status).toBe(404);
    expect(movie.body).toEqual([expect.objectContaining({ propertyName: 'TmdbId' })]);
  });
});
