import type { FakeMediaServer } from '../../src/media-server/index.js';
import { SEED_PASSWORDS } from '../../src/media-server/index.js';
import { adminGet, call, login, start, userHeaders } from './helpers.js';

type Dto = Record<string, unknown>;

/**
 * A client reports playback (`/Sessions/Playing`, `/Progress`, `/Stopped`), as the Emby and
 * Jellyfin apps do: its session then shows what plays, and nothing once it stopped; a logout
 * ends the session. This is how the e2e makes a live session appear and disappear.
 */
describe.each(['emby', 'jellyfin'] as const)(
  'media-server fake: playback reports on %s',
  (flavour) => {
    let s: FakeMediaServer;
    beforeEach(async () => {
      s = await start(flavour);
    });
    afterEach(async () => s.close());

    const sessionOf = async (deviceId: string) =>
      (await adminGet<Dto[]>(s, '/Sessions')).find((x) => x['DeviceId'] === deviceId);

    it('should show a started stream, its progress and pause, and drop it when stopped', async () => {
      const signIn = await login(s, 'bob', SEED_PASSWORDS.bob, 'bob-laptop');
      expect(signIn.status).toBe(200);
      const token = (signIn.json() as { AccessToken: string }).AccessToken;
      const headers = userHeaders(s, token);
      expect((await sessionOf('bob-laptop'))?.['NowPlayingItem']).toBeUndefined();

      const dune = s.seeded!.movies.dune;
      const started = await call(s, 'POST', '/Sessions/Playing', {
        headers,
        body: { ItemId: dune.id, PositionTicks: 600_000_000, PlayMethod: 'Transcode' },
      });
      expect(started.status).toBe(204);
      expect(await sessionOf('bob-laptop')).toMatchObject({
        UserName: 'bob',
        NowPlayingItem: { Id: dune.id, Name: 'Dune: Part Two', Type: 'Movie' },
        PlayState: { PositionTicks: 600_000_000, IsPaused: false, PlayMethod: 'Transcode' },
        TranscodingInfo: { IsVideoDirect: false, Bitrate: expect.any(Number) },
      });

      const progress = await call(s, 'POST', '/Sessions/Playing/Progress', {
        headers,
        body: { ItemId: dune.id, PositionTicks: 1_200_000_000, IsPaused: true },
      });
      expect(progress.status).toBe(204);
      expect(await sessionOf('bob-laptop')).toMatchObject({
        PlayState: { PositionTicks: 1_200_000_000, IsPaused: true, PlayMethod: 'Transcode' },
      });

      const stopped = await call(s, 'POST', '/Sessions/Playing/Stopped', {
        headers,
        body: { ItemId: dune.id, PositionTicks: 1_200_000_000 },
      });
      expect(stopped.status).toBe(204);
      const idle = await sessionOf('bob-laptop');
      expect(idle).toBeDefined();
      expect(idle).not.toHaveProperty('NowPlayingItem');
      expect(idle).not.toHaveProperty('TranscodingInfo');

      expect((await call(s, 'POST', '/Sessions/Logout', { headers })).status).toBe(204);
      expect(await sessionOf('bob-laptop')).toBeUndefined();
    });

    it('should refuse an unknown item or play method and change nothing', async () => {
      const token = (
        (await login(s, 'bob', SEED_PASSWORDS.bob, 'bob-laptop')).json() as { AccessToken: string }
      ).AccessToken;
      const headers = userHeaders(s, token);
      const unknown = await call(s, 'POST', '/Sessions/Playing', {
        headers,
        body: { ItemId: flavour === 'emby' ? '999999' : 'f'.repeat(32) },
      });
      expect(unknown.status).toBe(flavour === 'emby' ? 404 : 400);
      const badMethod = await call(s, 'POST', '/Sessions/Playing', {
        headers,
        body: { ItemId: s.seeded!.movies.dune.id, PlayMethod: 'Teleport' },
      });
      expect(badMethod.status).toBe(400);
      expect(await sessionOf('bob-laptop')).not.toHaveProperty('NowPlayingItem');
      // Anonymous callers have no session to report on.
      expect((await call(s, 'POST', '/Sessions/Playing', { body: {} })).status).toBe(401);
    });
  },
);
