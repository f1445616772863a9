// Sessions and devices (§1.4), and device sign-out with the guards of §8 risk 8: the id goes in
// the query, Emby's list Id is not the client's DeviceId, and unknown ids answer 404 or 400.
import { failure, FLAVOURS, harness, MODES, sent } from './helpers.js';

describe('media-server adapters: sessions and devices', () => {
  const boot = harness();

  it.each(MODES)('should list %s sessions in the port shape', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const sessions = await adapter.listSessions();
    const alice = sessions.find((s) => s.deviceId === 'alice-firefox');
    expect(alice).toMatchObject({
      userId: seeded.users.alice?.id,
      userName: 'alice',
      client: mode === 'emby' ? 'Emby Web' : 'Jellyfin Web',
      deviceName: 'Firefox',
      appVersion: '1.0.0',
      remoteAddress: expect.stringMatching(/^192\.168\.1\.\d+$/),
      lastActivityAt: expect.stringMatching(/Z$/),
      nowPlaying: {
        itemId: seeded.movies.dune.id,
        name: 'Dune: Part Two',
        type: 'Movie',
        runtimeSeconds: 166 * 60,
      },
      playState: { positionSeconds: 45 * 60, isPaused: false, playMethod: 'DirectPlay' },
      transcoding: false,
    });
    const bob = sessions.find((s) => s.deviceId === 'bob-appletv');
    expect(bob).toMatchObject({
      nowPlaying: { seriesName: 'The Bear', season: 1, episode: 2 },
      playState: { isPaused: true, playMethod: 'Transcode' },
      transcoding: true,
    });
    const device = fake.state.devices.get(
      mode === 'emby' ? 'd:alice-firefox' : `d:${seeded.users.alice?.id}:alice-firefox`,
    );
    // The key logoutDevice takes: Emby's internal device id, Jellyfin's DeviceId.
    expect(alice?.deviceKey).toBe(mode === 'emby' ? String(device?.internalId) : 'alice-firefox');
  });

  it.each(MODES)('should send a %s session a message and stop its playback', async (mode) => {
    const { adapter, fake } = await boot(mode);
    const alice = (await adapter.listSessions()).find((s) => s.deviceId === 'alice-firefox')!;
    fake.clearRequests();
    const message = { header: 'Account sharing', text: 'Too many streams', timeoutMs: 15000 };
    expect(await adapter.sendSessionMessage(alice.id, message)).toBe(true);
    const [sent] = fake.requests('/Message');
    if (mode === 'emby') {
      // Emby binds the message from the query.
      expect(sent?.query).toEqual({
        Text: 'Too many streams',
        Header: 'Account sharing',
        TimeoutMs: '15000',
      });
    } else {
      expect(sent?.body).toEqual({
        Header: 'Account sharing',
        Text: 'Too many streams',
        TimeoutMs: 15000,
      });
    }
    expect(await adapter.stopPlayback(alice.id)).toBe(true);
    expect(fake.state.sessionCommands.map((c) => c.command)).toEqual(['Message', 'Stop']);
    const after = (await adapter.listSessions()).find((s) => s.id === alice.id);
    expect(after?.nowPlaying).toBeUndefined();
    // A session that ended meanwhile: false, not an error.
    expect(await adapter.stopPlayback('0123456789abcdef0123456789abcdef')).toBe(false);
    expect(await adapter.sendSessionMessage('0123456789abcdef0123456789abcdef', message)).toBe(
      false,
    );
  });

  it.each(FLAVOURS)('should leave stale sessions to %s filtering', async (mode) => {
    const { adapter, fake } = await boot(mode);
    const ids = (await adapter.listSessions()).map((s) => s.deviceId);
    if (mode === 'emby') {
      expect(ids).toContain('alice-kodi');
      expect(fake.requests()[0]?.query).toEqual({});
    } else {
      expect(ids).not.toContain('alice-kodi');
      expect(fake.requests()[0]?.query).toEqual({ activeWithinSeconds: '960' });
    }
  });

  it.each(MODES)('should list %s devices with the key sign-out needs', async (mode) => {
    const { adapter, seeded } = await boot(mode);
    const devices = await adapter.listDevices();
    const firefox = devices.find((d) => d.deviceId === 'alice-firefox');
    expect(firefox).toMatchObject({
      name: 'Firefox',
      client: mode === 'emby' ? 'Emby Web' : 'Jellyfin Web',
      appVersion: '1.0.0',
      lastUserId: seeded.users.alice?.id,
      lastUserName: 'alice',
      lastActivityAt: expect.stringMatching(/Z$/),
    });
    if (mode === 'emby') {
      expect(firefox?.key).toMatch(/^\d+$/);
      expect(firefox?.ipAddress).toMatch(/^192\.168\.1\./);
    } else {
      expect(firefox?.key).toBe('alice-firefox');
    }
  });

  it.each(FLAVOURS)('should list one user’s %s devices', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const devices = await adapter.listDevices(seeded.users.bob?.id);
    expect(devices.map((d) => d.deviceId).sort()).toEqual(['bob-appletv', 'bob-iphone']);
    const query = fake.requests()[0]?.query;
    // Emby's /Devices has no user filter; the adapter filters on LastUserId itself.
    expect(query).toEqual(mode === 'emby' ? {} : { userId: seeded.users.bob?.id });
  });

  it.each(MODES)('should sign a %s device out with its id in the query', async (mode) => {
    const { adapter, fake } = await boot(mode);
    const device = (await adapter.listDevices()).find((d) => d.deviceId === 'bob-iphone');
    fake.clearRequests();
    await adapter.logoutDevice(device?.key ?? '');
    const [req] = fake.requests();
    expect(`${req?.method} ${req?.path.replace(/^\/emby/, '')}`).toBe('DELETE /Devices');
    expect(req?.query).toEqual(mode === 'emby' ? { Id: device?.key } : { id: device?.key });
    expect(req?.status).toBe(204);
    expect((await adapter.listDevices()).map((d) => d.deviceId)).not.toContain('bob-iphone');
  });

  it.each([
    ['emby', 404],
    ['jellyfin10', 404],
    ['jellyfin12', 400],
  ] as const)(
    'should count an unknown %s device (%i) as signed out once gone',
    async (mode, status) => {
      const { adapter, fake } = await boot(mode);
      await adapter.logoutDevice('no-such-device');
      expect(fake.requests().map((r) => `${r.method} ${r.status}`)).toEqual([
        `DELETE ${status}`,
        'GET 200',
      ]);
    },
  );

  it('should sign out an Emby device named by its client DeviceId (risk 8)', async () => {
    const { adapter, fake } = await boot('emby');
    const key = String(fake.state.devices.get('d:bob-iphone')?.internalId);
    await adapter.logoutDevice('bob-iphone');
    expect(
      fake.requests().map((r) => `${r.method} ${r.status} ${JSON.stringify(r.query)}`),
    ).toEqual(['DELETE 404 {"Id":"bob-iphone"}', 'GET 200 {}', `DELETE 204 {"Id":"${key}"}`]);
    expect(fake.state.devices.has('d:bob-iphone')).toBe(false);
  });

  it.each(FLAVOURS)(
    'should fail when the %s device is still listed after a refusal',
    async (mode) => {
      const { adapter, fake } = await boot(mode);
      const device = (await adapter.listDevices()).find((d) => d.deviceId === 'bob-iphone');
      fake.fail(400, /^\/Devices$/, { method: 'DELETE' });
      const err = await failure(adapter.logoutDevice(device?.key ?? ''));
      expect(err).toMatchObject({ kind: 'rejected', status: 400, operation: 'logout_device' });
      expect(sent(fake, '/Devices').slice(-2)).toEqual(['DELETE /Devices', 'GET /Devices']);
    },
  );
});
