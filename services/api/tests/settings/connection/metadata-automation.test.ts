import { settingsListSchema } from '@usher/contracts';
import {
  startFakeMoviePilot,
  startFakeTmdb,
  type FakeMoviePilot,
  type FakeTmdb,
} from '@usher/testkit';
import { ENGINE } from '../../support/database.js';
import { check, connectionHarness, type ConnectionHarness } from './helpers.js';

const TMDB_KEY = '0123456789abcdef0123456789abcdef';
const WRONG_TMDB_KEY = 'fedcba9876543210fedcba9876543210';
/** An address nothing listens on (port 9 is "discard", closed on test machines). */
const DEAD = 'http://127.0.0.1:9';

describe(`connection test: metadata and automation (${ENGINE})`, () => {
  let tmdb: FakeTmdb;
  let mp: FakeMoviePilot;
  let radarr: FakeMoviePilot;
  let sonarr: FakeMoviePilot;
  let h: ConnectionHarness;

  beforeAll(async () => {
    tmdb = await startFakeTmdb({ apiKey: TMDB_KEY });
    mp = await startFakeMoviePilot();
    radarr = await startFakeMoviePilot({ mode: 'radarr' });
    sonarr = await startFakeMoviePilot({ mode: 'sonarr' });
    h = await connectionHarness({
      TMDB_API_KEY: TMDB_KEY,
      TMDB_API_BASE: tmdb.apiBase,
      AUTOMATION_KIND: 'moviepilot',
      AUTOMATION_URL: mp.url,
      MOVIEPILOT_USERNAME: mp.username,
      MOVIEPILOT_PASSWORD: mp.password,
    });
  });
  afterAll(async () => {
    await h.close();
    await Promise.all([tmdb.close(), mp.close(), radarr.close(), sonarr.close()]);
  });

  describe('metadata', () => {
    it('should pass with the configured key and record the call', async () => {
      const reply = await h.test('metadata');

      expect(reply.ok).toBe(true);
      expect(reply.checks).toEqual([
        {
          target: 'tmdb',
          status: 'ok',
          message: 'TMDB accepted the v3 API key (language en-US)',
          latencyMs: expect.any(Number),
        },
      ]);
      expect(tmdb.requests.at(-1)!.path).toBe('/3/configuration');
      expect(await h.t.context.metrics.registry.metrics()).toContain(
        'usher_integration_requests_total{system="tmdb",operation="probe",outcome="ok"}',
      );
    });

    it('should fail a wrong draft key as data (200), never echoing it', async () => {
      const res = await h.test('metadata', { values: { TMDB_API_KEY: WRONG_TMDB_KEY } });

      expect(res.ok).toBe(false);
      expect(check(res, 'tmdb')).toMatchObject({
        status: 'fail',
        message: 'TMDB rejected the API key',
      });
      expect(JSON.stringify(res)).not.toContain(WRONG_TMDB_KEY);
    });

    it('should fail when TMDB is unreachable', async () => {
      const res = await h.test('metadata', {
        values: { TMDB_API_BASE: DEAD, TMDB_API_KEY: TMDB_KEY },
      });

      expect(check(res, 'tmdb')).toMatchObject({
        status: 'fail',
        message: 'The metadata provider (TMDB) is unreachable',
      });
    });

    it('should keep a stored secret the draft leaves out, and save nothing', async () => {
      const put = await h.t.call('PUT', '/api/v1/admin/settings/metadata', {
        token: h.token,
        body: { values: { TMDB_API_KEY: tmdb.readToken } },
      });
      expect(put.status).toBe(200);

      const res = await h.test('metadata', { values: { TMDB_LANGUAGE: 'zh-CN' } });

      expect(check(res, 'tmdb').message).toBe('TMDB accepted the v4 read token (language zh-CN)');
      expect(tmdb.requests.at(-1)!.headers.authorization).toBe(`Bearer ${tmdb.readToken}`);
      const list = settingsListSchema.parse(
        await (await h.t.call('GET', '/api/v1/admin/settings', { token: h.token })).json(),
      );
      const language = list.groups.flatMap((g) => g.items).find((i) => i.key === 'TMDB_LANGUAGE')!;
      expect(language).toMatchObject({ source: 'default', value: 'en-US' });
      await h.t.call('PUT', '/api/v1/admin/settings/metadata', {
        token: h.token,
        body: { values: { TMDB_API_KEY: null } },
      });
    });

    it('should refuse an invalid draft value like a PUT (400 SETTING_INVALID)', async () => {
      const body = await h.testError(
        'metadata',
        { values: { TMDB_LANGUAGE: 'english', METADATA_CACHE_HOURS: 0 } },
        400,
      );

      expect(body.error).toMatchObject({
        code: 'SETTING_INVALID',
        message: 'Some values are not valid',
        details: [
          { key: 'TMDB_LANGUAGE', message: 'must be e.g. en-US or zh-CN' },
          { key: 'METADATA_CACHE_HOURS', message: 'must be at least 1' },
        ],
      });
    });

    it('should refuse a draft key of another group (422 SETTING_UNKNOWN_KEY)', async () => {
      const body = await h.testError('metadata', { values: { SMTP_HOST: 'mail' } }, 422);

      expect(body.error).toMatchObject({
        code: 'SETTING_UNKNOWN_KEY',
        message: 'SMTP_HOST is not a setting of metadata',
      });
    });
  });

  describe('automation', () => {
    it('should log in to MoviePilot and read an authenticated route', async () => {
      const res = await h.test('automation');

      expect(res).toEqual({
        ok: true,
        checks: [
          {
            target: 'moviepilot',
            status: 'ok',
            message: `Logged in to MoviePilot as ${mp.username}; 0 subscriptions`,
            latencyMs: expect.any(Number),
          },
        ],
      });
    });

    it('should fail a refused login without echoing the password', async () => {
      const password = 'definitely-wrong-password';
      const res = await h.test('automation', { values: { MOVIEPILOT_PASSWORD: password } });

      expect(check(res, 'moviepilot')).toMatchObject({
        status: 'fail',
        message:
          'MoviePilot refused the username or password (accounts with 2FA are not supported)',
      });
      expect(JSON.stringify(res)).not.toContain(password);
    });

    it('should fail when MoviePilot is unreachable', async () => {
      const res = await h.test('automation', {
        values: { AUTOMATION_URL: DEAD, MOVIEPILOT_PASSWORD: mp.password },
      });

      expect(check(res, 'moviepilot')).toMatchObject({
        status: 'fail',
        message: 'The automation tool is unreachable',
      });
    });

    const servarr = (over: Record<string, string> = {}) => ({
      values: {
        AUTOMATION_KIND: 'servarr',
        AUTOMATION_URL: radarr.url,
        AUTOMATION_API_KEY: radarr.apiToken,
        AUTOMATION_SERIES_URL: sonarr.url,
        AUTOMATION_SERIES_API_KEY: sonarr.apiToken,
        // The stored MoviePilot password is bound to the old URL (docs/settings.md).
        MOVIEPILOT_PASSWORD: mp.password,
        ...over,
      },
    });

    it('should check the movie and the series service of servarr', async () => {
      const res = await h.test('automation', servarr({ AUTOMATION_QUALITY_PROFILE: 'any' }));

      expect(res.ok).toBe(true);
      expect(check(res, 'movies').message).toBe(
        'Radarr 5.8.3.8933: quality profile "Any", root folder /movies',
      );
      expect(check(res, 'series').message).toBe(
        'Sonarr 4.0.9.2244: quality profile "Any", root folder /tv',
      );
    });

    it('should fail an unknown profile or folder, and a refused key, per service', async () => {
      const profile = await h.test('automation', servarr({ AUTOMATION_QUALITY_PROFILE: 'Ultra' }));
      const folder = await h.test('automation', servarr({ AUTOMATION_ROOT_FOLDER: '/films' }));
      const key = await h.test('automation', servarr({ AUTOMATION_API_KEY: 'wrong-key' }));

      expect(profile.ok).toBe(false);
      expect(check(profile, 'movies')).toMatchObject({
        status: 'fail',
        message: 'Radarr 5.8.3.8933 has no quality profile "Ultra" (it has: Any, HD-1080p)',
      });
      expect(check(profile, 'series').status).toBe('fail');
      expect(check(folder, 'series').message).toBe(
        'Sonarr 4.0.9.2244 has no root folder "/films" (it has: /tv)',
      );
      expect(check(key, 'movies')).toMatchObject({
        status: 'fail',
        message: `${radarr.url} refused the API key`,
      });
      expect(check(key, 'series').status).toBe('ok');
    });
  });
});
