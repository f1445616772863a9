// The settings "test connection" for the media_server group (30-settings.md §6).
import { testMediaServerConnection } from '../../../src/integrations/media-server/probe.js';
import { FLAVOURS, harness } from './helpers.js';

const none = { memberLibraryIds: [], rankingLibraryIds: [], webhookTokenPresent: true };

describe('media-server connection test', () => {
  const boot = harness();

  it.each(FLAVOURS)('should pass every %s check on a healthy server', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const movies = (await adapter.libraries()).find((l) => l.name === 'Movies');
    const checks = await testMediaServerConnection(adapter, {
      memberLibraryIds: [movies?.id ?? ''],
      // Rankings may name a library by either id.
      rankingLibraryIds: [seeded.libraries.shows.id],
      webhookTokenPresent: true,
    });
    const product = mode === 'emby' ? 'Emby 4.8.11.0' : 'Jellyfin 12.0.0';
    expect(checks).toEqual([
      {
        target: 'server',
        status: 'ok',
        message: `Connected to ${fake.state.serverName} (${product})`,
        latencyMs: expect.any(Number),
      },
      {
        target: 'libraries',
        status: 'ok',
        message: '4 libraries; every configured id exists',
        latencyMs: expect.any(Number),
      },
      {
        target: 'playback_reporting',
        status: 'ok',
        message: 'Playback Reporting answered (24 plays recorded)',
        latencyMs: expect.any(Number),
      },
      { target: 'webhook', status: 'ok', message: 'The webhook token is set', latencyMs: 0 },
    ]);
  });

  it('should warn about a missing plugin, an empty webhook token and an old server', async () => {
    const { adapter, fake } = await boot('jellyfin10', { version: '10.8.13' });
    fake.state.playback.installed = false;
    const checks = await testMediaServerConnection(adapter, {
      ...none,
      webhookTokenPresent: false,
    });
    expect(checks.map((c) => [c.target, c.status])).toEqual([
      ['server', 'warn'],
      ['libraries', 'ok'],
      ['playback_reporting', 'warn'],
      ['webhook', 'warn'],
    ]);
    expect(checks[0]?.message).toContain('Usher supports Jellyfin 10.9 and later');
    expect(checks[2]?.message).toBe(
      'Playback Reporting plugin not installed: ' +
        'playback history, profiles and rankings are unavailable',
    );
    expect(checks[3]?.message).toContain('empty');
  });

  it('should list unknown library ids, and explain the Emby numeric-id trap', async () => {
    const { adapter, seeded } = await boot('emby');
    const movies = seeded.libraries.movies;
    const checks = await testMediaServerConnection(adapter, {
      ...none,
      memberLibraryIds: [movies.id, 'feedfeedfeedfeedfeedfeedfeedfeed'],
      rankingLibraryIds: ['424242'],
    });
    expect(checks[1]).toMatchObject({ target: 'libraries', status: 'fail' });
    expect(checks[1]?.message).toBe(
      `Unknown ids in MEMBER_LIBRARY_IDS: ${movies.id}, feedfeedfeedfeedfeedfeedfeedfeed; ` +
        `${movies.id} is the numeric id of "Movies"; Emby needs its Guid ${movies.guid}; ` +
        'unknown ids in RANKING_LIBRARY_IDS: 424242',
    );
  });

  it('should fail an unreachable server and skip the checks that need it', async () => {
    const { adapter, fake } = await boot('emby');
    await fake.down();
    const checks = await testMediaServerConnection(adapter, none);
    expect(checks.map((c) => [c.target, c.status, c.message])).toEqual([
      ['server', 'fail', 'The media server is unreachable'],
      ['libraries', 'fail', 'Not checked: the server check failed'],
      ['playback_reporting', 'warn', 'Not checked: the server check failed'],
      ['webhook', 'ok', 'The webhook token is set'],
    ]);
  });

  it('should fail a refused key without ever showing it', async () => {
    const { adapterWith } = await boot('jellyfin12');
    const key = 'NotTheKey0123456789';
    const checks = await testMediaServerConnection(adapterWith({ apiKey: key }), none);
    expect(checks[0]).toMatchObject({
      status: 'fail',
      message:
        'Jellyfin refused the API key (check the key; Jellyfin 12 ignores Emby-style headers)',
    });
    expect(JSON.stringify(checks)).not.toContain(key);
  });

  it('should fail with a hint when the server is the other product', async () => {
    const { adapterWith } = await boot('jellyfin12');
    const checks = await testMediaServerConnection(adapterWith({ kind: 'emby' }), none);
    expect(checks[0]).toMatchObject({ target: 'server', status: 'fail' });
    expect(checks[0]?.message).toMatch(/^This server is Jellyfin 12\.0\.0, not Emby/);
    expect(checks[0]?.message).toContain('MEDIA_SERVER_KIND');
  });

  it('should fail a slow server with the timeout and measure the latency', async () => {
    const { adapterWith, fake } = await boot('emby');
    fake.slow(800, /^\/System\/Info$/);
    const checks = await testMediaServerConnection(adapterWith({ timeoutSeconds: 0.3 }), none);
    expect(checks[0]).toMatchObject({
      status: 'fail',
      message: 'The media server did not answer within 0.3 s',
    });
    expect(checks[0]?.latencyMs).toBeGreaterThanOrEqual(250);
  });

  it('should fail a key without administrator rights (403)', async () => {
    const { adapter, fake } = await boot('emby');
    fake.fail(403, /^\/System\/Info$/);
    const checks = await testMediaServerConnection(adapter, none);
    expect(checks[0]?.message).toBe(
      'The media server refused the API key (HTTP 403: the key lacks administrator rights)',
    );
  });
});
