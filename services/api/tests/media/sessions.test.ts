// `GET /admin/sessions` against the fake's seeded sessions: alice playing a film directly in a
// browser, bob paused on a transcoded episode, the admin's phone idle, and a Kodi session idle
// for two hours, which the activity window leaves out.
import { sessionListSchema } from '@usher/contracts';
import { errorOf, startMediaWorld, type MediaWorld } from './harness.js';
import { domainFlavours } from '../support/flavours.js';

const MINUTE_TICKS = 600_000_000;

// One flavour (support/flavours.ts): Emby, which lists stale sessions too: the activity window is
// Usher's own.
describe.each(domainFlavours('emby'))('live sessions on %s', (flavour) => {
  let w: MediaWorld;
  beforeAll(async () => {
    w = await startMediaWorld(flavour, { now: new Date('2026-11-20T12:00:00.000Z') });
  });
  afterAll(async () => w.close());

  const sessionOf = (deviceId: string) =>
    [...w.fake.state.sessions.values()].find(
      (s) => w.fake.state.devices.get(s.deviceKey)?.deviceId === deviceId,
    )!;

  it('should map every field and link sessions to their members', async () => {
    const alice = await w.member('alice');
    const res = await w.get('/api/v1/admin/sessions', w.adminToken);
    expect(res.status).toBe(200);
    const list = sessionListSchema.parse(await res.json());
    expect(list.fetchedAt).toBe(w.clock.now.toISOString());
    const s = w.fake.seeded!;
    const web = flavour === 'emby' ? 'Emby Web' : 'Jellyfin Web';
    const firefox = sessionOf('alice-firefox');
    const appleTv = sessionOf('bob-appletv');
    const pixel = sessionOf('admin-pixel');
    // Playing first, most recent activity first: bob (1 min ago), alice (2 min), the idle phone.
    const [aliceRow, bobRow, idleRow] = [
      {
        id: firefox.id,
        user: {
          mediaUserId: s.users.alice!.id,
          name: 'alice',
          userId: alice.id,
          username: 'alice',
        },
        client: web,
        deviceName: 'Firefox',
        deviceId: 'alice-firefox',
        appVersion: '1.0.0',
        remoteAddress: firefox.remoteEndPoint,
        lastActivityAt: new Date(w.clock.now.getTime() - 2 * 60_000).toISOString(),
        nowPlaying: {
          itemId: s.movies.dune.id,
          name: 'Dune: Part Two',
          type: 'Movie',
          seriesName: null,
          season: null,
          episode: null,
          runtimeSeconds: 166 * 60,
        },
        playState: {
          positionSeconds: 45 * 60,
          isPaused: false,
          playMethod: 'DirectPlay',
          progress: (45 * 60) / (166 * 60),
          transcoding: false,
          bitrate: null,
        },
      },
      {
        id: appleTv.id,
        user: { mediaUserId: s.users.bob!.id, name: 'bob' },
        client: 'Infuse',
        deviceName: 'Living Room Apple TV',
        deviceId: 'bob-appletv',
        appVersion: '1.0.0',
        remoteAddress: appleTv.remoteEndPoint,
        lastActivityAt: new Date(w.clock.now.getTime() - 60_000).toISOString(),
        nowPlaying: {
          itemId: s.series.bear.episodes[1]!.id,
          name: 'Hands',
          type: 'Episode',
          seriesName: 'The Bear',
          season: 1,
          episode: 2,
          runtimeSeconds: 30 * 60,
        },
        playState: {
          positionSeconds: (12 * MINUTE_TICKS) / 10_000_000,
          isPaused: true,
          playMethod: 'Transcode',
          progress: 12 / 30,
          transcoding: true,
          bitrate: 8_000_000,
        },
      },
      {
        id: pixel.id,
        user: { mediaUserId: s.users.admin!.id, name: 'admin' },
        client: flavour === 'emby' ? 'Emby for Android' : 'Jellyfin Android',
        deviceName: 'Pixel 8',
        deviceId: 'admin-pixel',
        appVersion: '1.0.0',
        remoteAddress: pixel.remoteEndPoint,
        lastActivityAt: new Date(w.clock.now.getTime() - 5 * 60_000).toISOString(),
        nowPlaying: null,
        playState: null,
      },
    ];
    // Posters are signed for the asking admin and work without a token (a plain <img src>). The
    // episode shows its show's 2:3 poster, not its 16:9 still.
    const posters = list.data.map((x) => x.nowPlaying?.posterUrl ?? null);
    expect(posters[0]).toMatch(
      new RegExp(
        `^/api/v1/media/posters/${s.series.bear.series.id}\\?u=${w.admin.id}&exp=\\d+&sig=`,
      ),
    );
    expect((await w.get(posters[0]!)).status).toBe(200);
    expect(posters[1]).toContain(`/posters/${s.movies.dune.id}?`);
    expect(posters[2]).toBeNull();
    const image = await w.get(posters[1]!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    const withoutPosters = list.data.map((x) =>
      x.nowPlaying ? { ...x, nowPlaying: { ...x.nowPlaying, posterUrl: undefined } } : x,
    );
    expect(withoutPosters).toEqual([bobRow, aliceRow, idleRow]);
  });

  it('should fall back to the episode image without a show poster, and omit a poster no item has', async () => {
    const s = w.fake.seeded!;
    const show = w.fake.state.items.get(s.series.bear.series.id)!;
    const film = w.fake.state.items.get(s.movies.dune.id)!;
    show.hasPrimaryImage = false;
    film.hasPrimaryImage = false;
    try {
      const list = sessionListSchema.parse(
        await (await w.get('/api/v1/admin/sessions', w.adminToken)).json(),
      );
      const playing = (deviceId: string) => list.data.find((x) => x.deviceId === deviceId)!;
      const episode = playing('bob-appletv').nowPlaying!;
      expect(episode.posterUrl).toContain(`/posters/${episode.itemId}?`);
      // Dune has no image at all: no URL that could only 404.
      expect(playing('alice-firefox').nowPlaying).not.toHaveProperty('posterUrl');
    } finally {
      show.hasPrimaryImage = true;
      film.hasPrimaryImage = true;
    }
  });

  it('should widen the window on request, within 60–3600 s', async () => {
    const wide = sessionListSchema.parse(
      await (await w.get('/api/v1/admin/sessions?activeWithinSeconds=3600', w.adminToken)).json(),
    );
    // Kodi was last active 2 hours ago: still out (and Jellyfin itself hides it after 960 s).
    expect(wide.data.map((x) => x.deviceId).sort()).toEqual([
      'admin-pixel',
      'alice-firefox',
      'bob-appletv',
    ]);
    const narrow = sessionListSchema.parse(
      await (await w.get('/api/v1/admin/sessions?activeWithinSeconds=150', w.adminToken)).json(),
    );
    expect(narrow.data.map((x) => x.deviceId)).toEqual(['bob-appletv', 'alice-firefox']);
    for (const bad of ['59', '3601', 'abc']) {
      const res = await w.get(`/api/v1/admin/sessions?activeWithinSeconds=${bad}`, w.adminToken);
      expect(res.status).toBe(400);
    }
  });

  it('should show a session that starts and drop one that ends', async () => {
    const before = sessionListSchema.parse(
      await (await w.get('/api/v1/admin/sessions', w.adminToken)).json(),
    );
    const firefox = sessionOf('alice-firefox');
    w.fake.state.sessions.delete(firefox.id);
    const after = sessionListSchema.parse(
      await (await w.get('/api/v1/admin/sessions', w.adminToken)).json(),
    );
    expect(after.data.map((x) => x.id)).toEqual(
      before.data.map((x) => x.id).filter((id) => id !== firefox.id),
    );
    w.fake.state.sessions.set(firefox.id, firefox);
    const back = sessionListSchema.parse(
      await (await w.get('/api/v1/admin/sessions', w.adminToken)).json(),
    );
    expect(back.data.map((x) => x.id)).toEqual(before.data.map((x) => x.id));
  });

  it('should be for admins only, and say 502 when the server fails', async () => {
    const member = await w.get('/api/v1/admin/sessions', await w.token(await w.member('bob')));
    expect(member.status).toBe(403);
    w.fake.fail(500, /Sessions/);
    try {
      const res = await w.get('/api/v1/admin/sessions', w.adminToken);
      expect(res.status).toBe(502);
      expect((await errorOf(res)).code).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      w.fake.clearFaults();
    }
  });
});
