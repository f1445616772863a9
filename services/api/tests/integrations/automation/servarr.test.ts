import { startFakeMoviePilot, type FakeMoviePilot, type MoviePilotMode } from '@usher/testkit';
import { readAutomationSettings } from '../../../src/integrations/automation/factory.js';
import { ServarrAutomation } from '../../../src/integrations/automation/servarr.js';
import type { AutomationSettings } from '../../../src/integrations/automation/types.js';
import { integrationDeps, integrationError, MapSettings } from '../support.js';

type Servarr = Extract<AutomationSettings, { kind: 'servarr' }>;

describe('servarr adapter (MoviePilot /api/v3, Radarr, Sonarr)', () => {
  const fakes: FakeMoviePilot[] = [];
  const start = async (mode: MoviePilotMode) => {
    const fake = await startFakeMoviePilot({ mode });
    fakes.push(fake);
    return fake;
  };
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  const settings = (
    movies: FakeMoviePilot,
    series: FakeMoviePilot = movies,
    over: Partial<Servarr> = {},
  ): Servarr => ({
    kind: 'servarr',
    movies: { url: movies.url, apiKey: movies.apiToken },
    series: { url: series.url, apiKey: series.apiToken },
    qualityProfile: '',
    rootFolder: '',
    ...over,
  });
  const dune = { type: 'movie' as const, tmdbId: 438631, title: 'Dune', year: 2021 };
  const got = {
    type: 'tv' as const,
    tmdbId: 1399,
    tvdbId: 121361,
    title: 'Game of Thrones',
    year: 2011,
    seasonNumbers: [0, 1, 2, 3],
  };

  it('should add through MoviePilot /api/v3 with X-Api-Key and the superset body', async () => {
    const mp = await start('moviepilot');
    const arr = new ServarrAutomation(settings(mp));

    const movie = await arr.submit(dune);
    const series = await arr.submit({ ...got, season: 2 });

    const post = mp.requests.find((r) => r.method === 'POST' && r.path === '/api/v3/movie')!;
    expect(post.headers['x-api-key']).toBe(mp.apiToken);
    expect(post.body).toMatchObject({
      tmdbId: 438631,
      qualityProfileId: 1,
      rootFolderPath: '/',
      monitored: true,
      minimumAvailability: 'released',
      addOptions: { searchForMovie: true },
    });
    // MoviePilot's FastAPI route is case-sensitive: `qualityProfile`, not `qualityprofile`.
    expect(mp.requests.map((r) => r.status)).not.toContain(404);
    expect(movie.externalId).toEqual(expect.any(Number));
    expect(series.externalId).toEqual(expect.any(Number));
    expect(mp.state.subscriptions.map((s) => [s.type, s.tmdbid, s.season])).toEqual([
      ['电影', 438631, null],
      ['电视剧', 1399, 2],
    ]);
  });

  it('should add to Radarr with 201, and count "already added" as success', async () => {
    const radarr = await start('radarr');
    const arr = new ServarrAutomation(settings(radarr, radarr, { qualityProfile: 'hd-1080P' }));

    const first = await arr.submit(dune);
    const again = await arr.submit(dune);

    expect(first).toMatchObject({ alreadyExisted: false, externalId: expect.any(Number) });
    expect(again).toEqual({ externalId: null, alreadyExisted: true, message: 'Already added' });
    expect(radarr.state.servarrMovies[0]).toMatchObject({
      qualityProfileId: 4,
      rootFolderPath: '/movies',
    });
  });

  it('should reject any other Radarr 400 with its validation messages', async () => {
    const radarr = await start('radarr');

    const error = await integrationError(
      new ServarrAutomation(settings(radarr)).submit({ ...dune, title: '' }),
    );

    expect(error).toMatchObject({ kind: 'rejected', status: 400 });
    expect(error.message).toContain("'Title' must not be empty.");
  });

  it('should monitor all regular seasons of a series on Sonarr, or only the one', async () => {
    const radarr = await start('radarr');
    const sonarr = await start('sonarr');
    const arr = new ServarrAutomation(settings(radarr, sonarr));

    await arr.submit(got);
    await arr.submit({ ...got, tmdbId: 95396, tvdbId: 371980, season: 2 });

    const [whole, single] = sonarr.state.servarrSeries;
    expect(whole).toMatchObject({
      tvdbId: 121361,
      tmdbId: 1399,
      rootFolderPath: '/tv',
      seasonFolder: true,
      addOptions: { searchForMissingEpisodes: true },
    });
    expect(whole!.seasons).toEqual([
      { seasonNumber: 0, monitored: false },
      { seasonNumber: 1, monitored: true },
      { seasonNumber: 2, monitored: true },
      { seasonNumber: 3, monitored: true },
    ]);
    expect(single!.seasons!.filter((s) => s.monitored)).toEqual([
      { seasonNumber: 2, monitored: true },
    ]);
    expect(radarr.requests).toHaveLength(0);
  });

  it('should reject a series without a TVDB id before calling anything', async () => {
    const sonarr = await start('sonarr');

    const error = await integrationError(
      new ServarrAutomation(settings(sonarr)).submit({ ...got, tvdbId: null }),
    );

    expect(error).toMatchObject({ kind: 'rejected', message: 'no TVDB id' });
    expect(sonarr.requests).toHaveLength(0);
  });

  it('should probe status, profile and root folder of each service', async () => {
    const radarr = await start('radarr');
    const sonarr = await start('sonarr');
    const arr = new ServarrAutomation(settings(radarr, sonarr, { qualityProfile: 'Any' }));

    const movies = await arr.probeService('movies');
    const series = await arr.probeService('series');
    const both = await arr.probe();

    expect(movies).toEqual({
      ok: true,
      message: 'Radarr 5.8.3.8933: quality profile "Any", root folder /movies',
      details: [],
    });
    expect(series.message).toBe('Sonarr 4.0.9.2244: quality profile "Any", root folder /tv');
    expect(both.ok).toBe(true);
  });

  it('should fail the probe for an unknown profile or folder, naming the known', async () => {
    const radarr = await start('radarr');

    const profile = await new ServarrAutomation(
      settings(radarr, radarr, { qualityProfile: 'Ultra' }),
    ).probeService('movies');
    const folder = await new ServarrAutomation(
      settings(radarr, radarr, { rootFolder: '/films' }),
    ).probeService('movies');

    expect(profile).toMatchObject({
      ok: false,
      message: 'Radarr 5.8.3.8933 has no quality profile "Ultra" (it has: Any, HD-1080p)',
    });
    expect(folder).toMatchObject({
      ok: false,
      message: 'Radarr 5.8.3.8933 has no root folder "/films" (it has: /movies)',
    });
  });

  it('should report a wrong key as auth (unleaked), a dead service as network', async () => {
    const radarr = await start('radarr');
    const { deps, logs } = integrationDeps();
    const wrong = 'wrong-api-key-0000000000000';

    const refused = await new ServarrAutomation(
      settings(radarr, radarr, { movies: { url: radarr.url, apiKey: wrong } }),
      deps,
    ).probeService('movies');
    await radarr.faults.down();
    const down = await new ServarrAutomation(settings(radarr)).probeService('movies');

    expect(refused).toMatchObject({ ok: false, kind: 'auth' });
    expect(refused.message).toBe(`${radarr.url} refused the API key`);
    expect(JSON.stringify([refused, logs.text()])).not.toContain(wrong);
    expect(down).toMatchObject({ ok: false, kind: 'network' });
  });

  it('should fall back to the movie service for series URL and key', async () => {
    const values = new MapSettings({
      AUTOMATION_KIND: 'servarr',
      AUTOMATION_URL: 'http://radarr:7878',
      AUTOMATION_API_KEY: 'movies-key',
      AUTOMATION_SERIES_URL: '',
      AUTOMATION_SERIES_API_KEY: '',
      AUTOMATION_QUALITY_PROFILE: '',
      AUTOMATION_ROOT_FOLDER: '',
    });

    const read = await readAutomationSettings(values);

    expect(read).toMatchObject({
      kind: 'servarr',
      series: { url: 'http://radarr:7878', apiKey: 'movies-key' },
    });
  });
});
