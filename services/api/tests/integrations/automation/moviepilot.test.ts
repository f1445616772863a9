import { startFakeMoviePilot, type FakeMoviePilot } from '@usher/testkit';
import { MoviePilotAutomation } from '../../../src/integrations/automation/adapter.js';
import { MoviePilotTokens } from '../../../src/integrations/automation/client.js';
import {
  AutomationFactory,
  createAutomation,
} from '../../../src/integrations/automation/factory.js';
import { integrationDeps, integrationError, MapSettings } from '../support.js';

const LOGIN = '/api/v1/login/access-token';

describe('MoviePilot adapter against the fake', () => {
  let fake: FakeMoviePilot;

  beforeEach(async () => {
    fake = await startFakeMoviePilot();
  });
  afterEach(() => fake.close());

  const account = (over: { password?: string } = {}) => ({
    url: fake.url,
    username: fake.username,
    password: over.password ?? fake.password,
  });
  const logins = () => fake.requests.filter((r) => r.path === LOGIN).length;
  const dune = { type: 'movie' as const, tmdbId: 438631, title: 'Dune', year: 2021 };

  it('should log in by form and subscribe with the trailing slash and Chinese type', async () => {
    const mp = new MoviePilotAutomation(account());

    const outcome = await mp.submit(dune);

    const [login, subscribe] = fake.requests;
    expect(login!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(login!.body).toEqual({ username: fake.username, password: fake.password });
    expect(subscribe).toMatchObject({ method: 'POST', path: '/api/v1/subscribe/', status: 200 });
    expect(subscribe!.body).toEqual({ name: 'Dune', type: '电影', tmdbid: 438631, year: '2021' });
    // The slash avoids FastAPI's 307, which would lose the POST body.
    expect(fake.requests.map((r) => r.status)).not.toContain(307);
    expect(outcome).toMatchObject({ alreadyExisted: false, externalId: expect.any(Number) });
    expect(fake.state.subscriptions).toHaveLength(1);
  });

  it('should be answered 307 without the slash (why the adapter sends it)', async () => {
    const token = fake.issueToken();
    const res = await fetch(`${fake.url}/api/v1/subscribe`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });

    expect(res.status).toBe(307);
  });

  it('should send season only for one season, and count existing as success', async () => {
    const mp = new MoviePilotAutomation(account());
    const got = { type: 'tv' as const, tmdbId: 1399, title: 'Game of Thrones', year: 2011 };

    await mp.submit({ ...got, season: 2 });
    await mp.submit(got);
    const again = await mp.submit({ ...got, season: 2 });

    const bodies = fake.requests.filter((r) => r.method === 'POST' && r.path !== LOGIN);
    expect(bodies[0]!.body).toMatchObject({ type: '电视剧', season: 2 });
    expect(bodies[1]!.body).not.toHaveProperty('season');
    expect(again.alreadyExisted).toBe(true);
    expect(await mp.existing(1399, 2)).toBe(again.externalId);
    expect(await mp.existing(438631)).toBeNull();
    expect(logins()).toBe(1);
  });

  it('should turn success:false with HTTP 200 into rejected with MoviePilot’s reason', async () => {
    fake.refuse(438631, '未识别到媒体信息');

    const error = await integrationError(new MoviePilotAutomation(account()).submit(dune));

    expect(error).toMatchObject({ kind: 'rejected', status: 200, system: 'automation' });
    expect(error.message).toBe('MoviePilot refused the subscription: 未识别到媒体信息');
    expect(error.toAppError().code).toBe('UPSTREAM_REJECTED');
  });

  it('should reuse the token until exp − 1 h, then log in again', async () => {
    let now = Date.now();
    const tokens = new MoviePilotTokens(() => now);
    const mp = new MoviePilotAutomation(account(), {}, { tokens });

    await mp.existing(1);
    await mp.existing(2);
    now += 8 * 24 * 3600_000 - 3600_000 + 1_000; // just past exp − 1 h
    await mp.existing(3);

    expect(logins()).toBe(2);
  });

  it.each([
    // A well-formed, unexpired JWT whose signature the fake cannot verify.
    [
      '403 for a token MoviePilot cannot verify',
      403,
      (t: string) => t.replace(/\.[^.]+$/, '.c2ln'),
    ],
    // An empty bearer: FastAPI's "Not authenticated".
    ['401 Not authenticated', 401, () => ''],
  ])('should log in again once and retry after %s', async (_case, status, cached) => {
    const tokens = new MoviePilotTokens();
    tokens.set(MoviePilotTokens.keyFor(fake.url, fake.username), cached(fake.issueToken()));
    const mp = new MoviePilotAutomation(account(), {}, { tokens });

    const outcome = await mp.submit(dune);

    expect(fake.requests.map((r) => `${r.path} ${r.status}`)).toEqual([
      `/api/v1/subscribe/ ${status}`,
      `${LOGIN} 200`,
      '/api/v1/subscribe/ 200',
    ]);
    expect(outcome.externalId).toEqual(expect.any(Number));
  });

  it('should refuse a wrong password as auth without leaking it', async () => {
    const { deps, logs } = integrationDeps();
    const password = 'not-the-password-123';
    const mp = new MoviePilotAutomation(account({ password }), deps);

    const error = await integrationError(mp.submit(dune));
    const probe = await mp.probe();

    expect(error).toMatchObject({ kind: 'auth', operation: 'login', status: 401 });
    expect(error.toAppError().code).toBe('UPSTREAM_AUTH_FAILED');
    expect(probe).toMatchObject({ ok: false, kind: 'auth' });
    expect(JSON.stringify([error, error.message, probe, logs.text()])).not.toContain(password);
  });

  it('should report MoviePilot down as network and slow as timeout', async () => {
    fake.faults.slow(400);
    const slow = await integrationError(
      new MoviePilotAutomation(account(), {}, { timeoutMs: 150 }).submit(dune),
    );
    await fake.faults.clear();
    await fake.faults.down();
    const down = await new MoviePilotAutomation(account()).probe();

    expect(slow.kind).toBe('timeout');
    expect(down).toMatchObject({ ok: false, kind: 'network' });
  });

  it('should search by media and title, and send torrent_info back unchanged', async () => {
    const mp = new MoviePilotAutomation(account());

    const byMedia = await mp.searchByMedia(438631, 'movie');
    const byTitle = await mp.searchByTitle('thrones');
    const nothing = await mp.searchByTitle('no such release');
    const downloadId = await mp.download(byMedia[0]!.torrentInfo);

    const search = fake.requests.find((r) => r.path === '/api/v1/search/media/tmdb:438631')!;
    expect(search.query).toMatchObject({ mtype: '电影' });
    expect(byMedia).toHaveLength(2);
    expect(byMedia[0]).toMatchObject({
      site: 'HDHome',
      sizeBytes: 58_000_000_000,
      seeders: 120,
      publishedAt: '2024-03-01 12:00:00',
      volumeFactor: '免费',
    });
    expect(byTitle[0]!.title).toMatch(/Game\.of\.Thrones/);
    expect(nothing).toEqual([]);
    expect(downloadId).toMatch(/^[0-9a-f]{40}$/);
    expect(fake.state.downloads[0]!.torrent_in).toEqual(byMedia[0]!.torrentInfo);
  });

  it('should reject a download MoviePilot cannot recognise', async () => {
    const error = await integrationError(
      new MoviePilotAutomation(account()).download({ title: 'Unknown.Release-GRP' }),
    );

    expect(error).toMatchObject({ kind: 'rejected' });
    expect(error.message).toBe('MoviePilot refused the download: 无法识别媒体信息');
  });

  it('should probe by logging in and reading the subscription list', async () => {
    const probe = await new MoviePilotAutomation(account()).probe();

    expect(probe).toEqual({
      ok: true,
      message: `Logged in to MoviePilot as ${fake.username}; 0 subscriptions`,
      details: [],
    });
    expect(fake.requests.map((r) => r.path)).toEqual([LOGIN, '/api/v1/subscribe/']);
  });

  it('should need a URL, a username and a password, and share tokens across rebuilds', async () => {
    const values = new MapSettings({
      AUTOMATION_KIND: 'moviepilot',
      AUTOMATION_URL: fake.url,
      MOVIEPILOT_USERNAME: fake.username,
      MOVIEPILOT_PASSWORD: '',
    });
    const factory = new AutomationFactory(values);

    const missing = await integrationError(factory.get());
    values.values.MOVIEPILOT_PASSWORD = fake.password;
    const first = (await factory.get()) as MoviePilotAutomation;
    await first.existing(1);
    values.values.AUTOMATION_URL = `${fake.url}/`;
    const rebuilt = (await factory.get()) as MoviePilotAutomation;
    await rebuilt.existing(1);

    expect(missing).toMatchObject({ kind: 'not_configured' });
    expect(missing.message).toContain('MOVIEPILOT_PASSWORD');
    expect(() =>
      createAutomation({ kind: 'moviepilot', url: '', username: 'u', password: 'p' }),
    ).toThrow(/AUTOMATION_URL/);
    expect(rebuilt).not.toBe(first);
    // Same server and user (the trailing slash is trimmed): one login for both adapters.
    expect(logins()).toBe(1);
  });
});
