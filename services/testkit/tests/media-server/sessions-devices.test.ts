import type { FakeMediaServer } from '../../src/media-server/index.js';
import { adminGet, adminHeaders, call, start, userHeaders } from './helpers.js';

type Dto = Record<string, unknown>;

describe('media-server fake: sessions and devices (§1.4)', () => {
  const servers: FakeMediaServer[] = [];
  const boot = async (...args: Parameters<typeof start>): Promise<FakeMediaServer> => {
    const s = await start(...args);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it.each(['emby', 'jellyfin'] as const)(
    'should list %s sessions as a bare array with playback state',
    async (flavour) => {
      const s = await boot(flavour);
      const sessions = await adminGet<Dto[]>(s, '/Sessions');
      expect(Array.isArray(sessions)).toBe(true);
      const alice = sessions.find((x) => x['DeviceId'] === 'alice-firefox') as Dto;
      expect(alice).toMatchObject({
        UserName: 'alice',
        DeviceName: 'Firefox',
        RemoteEndPoint: expect.any(String),
        NowPlayingItem: { Name: 'Dune: Part Two', Type: 'Movie', RunTimeTicks: 166 * 600_000_000 },
        PlayState: { PositionTicks: 45 * 600_000_000, IsPaused: false, PlayMethod: 'DirectPlay' },
      });
      expect(alice).not.toHaveProperty('TranscodingInfo');
      const bob = sessions.find((x) => x['DeviceId'] === 'bob-appletv') as Dto;
      expect(bob).toMatchObject({
        NowPlayingItem: { SeriesName: 'The Bear', ParentIndexNumber: 1, IndexNumber: 2 },
        PlayState: { IsPaused: true, PlayMethod: 'Transcode' },
        TranscodingInfo: {
          VideoCodec: 'h264',
          IsVideoDirect: false,
          TranscodeReasons: ['VideoCodecNotSupported'],
        },
      });
      if (flavour === 'emby') expect(alice['InternalDeviceId']).toEqual(expect.any(Number));
      else expect(alice).not.toHaveProperty('InternalDeviceId');
    },
  );

  it('should hide stale sessions on Jellyfin with activeWithinSeconds=960', async () => {
    const jf = await boot('jellyfin');
    const all = await adminGet<Dto[]>(jf, '/Sessions');
    const active = await adminGet<Dto[]>(jf, '/Sessions?activeWithinSeconds=960');
    expect(all.map((x) => x['DeviceId'])).toContain('alice-kodi');
    expect(active.map((x) => x['DeviceId'])).not.toContain('alice-kodi');
    expect(active).toHaveLength(3);
  });

  it('should list Emby devices with a server Id that differs from ReportedDeviceId', async () => {
    const emby = await boot('emby');
    const devices = await adminGet<{ Items: Dto[] }>(emby, '/Devices');
    const firefox = devices.Items.find((d) => d['ReportedDeviceId'] === 'alice-firefox') as Dto;
    expect(firefox).toMatchObject({ Name: 'Firefox', AppName: 'Emby Web', LastUserName: 'alice' });
    expect(firefox['Id']).not.toBe('alice-firefox');
    expect(firefox['Id']).toMatch(/^\d+$/);
  });

  it('should list Jellyfin devices by client DeviceId and filter by userId', async () => {
    const jf = await boot('jellyfin');
    const all = await adminGet<Dto>(jf, '/Devices');
    expect(all).toMatchObject({ TotalRecordCount: 5, StartIndex: 0 });
    const bob = await adminGet<{ Items: Dto[] }>(jf, `/Devices?userId=${jf.seeded?.users.bob?.id}`);
    expect(bob.Items.map((d) => d['Id']).sort()).toEqual(['bob-appletv', 'bob-iphone']);
    expect(bob.Items[0]).not.toHaveProperty('ReportedDeviceId');
  });

  it('should delete an Emby device by its list Id in the query and end its token', async () => {
    const emby = await boot('emby');
    const devices = await adminGet<{ Items: Dto[] }>(emby, '/Devices');
    const phone = devices.Items.find((d) => d['ReportedDeviceId'] === 'bob-iphone') as Dto;
    const res = await call(emby, 'DELETE', `/Devices?Id=${phone['Id']}`, {
      headers: adminHeaders(emby),
    });
    expect(res.status).toBe(204);
    const after = await adminGet<{ Items: Dto[] }>(emby, '/Devices');
    expect(after.Items.map((d) => d['ReportedDeviceId'])).not.toContain('bob-iphone');
    const token = emby.seeded?.tokens['bob-iphone'] ?? '';
    expect(
      (await call(emby, 'GET', '/Sessions', { headers: userHeaders(emby, token) })).status,
    ).toBe(401);
  });

  it('should answer 404 (10.11) or 400 (12.0) for an unknown Jellyfin device', async () => {
    const jf10 = await boot('jellyfin', { version: '10.11.0' });
    const jf12 = await boot('jellyfin');
    const gone10 = await call(jf10, 'DELETE', '/Devices?id=nope', { headers: adminHeaders(jf10) });
    expect(gone10.status).toBe(404);
    const gone12 = await call(jf12, 'DELETE', '/Devices?id=nope', { headers: adminHeaders(jf12) });
    expect(gone12.status).toBe(400);
    const ok = await call(jf12, 'DELETE', '/Devices?id=alice-kodi', {
      headers: adminHeaders(jf12),
    });
    expect(ok.status).toBe(204);
    const sessions = await adminGet<Dto[]>(jf12, '/Sessions');
    expect(sessions.map((x) => x['DeviceId'])).not.toContain('alice-kodi');
  });

  it('should show a user token only its own sessions', async () => {
    const jf = await boot('jellyfin');
    const token = jf.seeded?.tokens['bob-appletv'] ?? '';
    const res = await call(jf, 'GET', '/Sessions', { headers: userHeaders(jf, token) });
    const mine = res.json() as Dto[];
    expect(mine.map((x) => x['UserName'])).toEqual(['bob']);
    expect((await call(jf, 'GET', '/Devices', { headers: userHeaders(jf, token) })).status).toBe(
      403,
    );
  });
});
