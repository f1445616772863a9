// The member's media home against the media-server fake: server address, library counts
// (cached per replica), the member's own "latest" rail with its states, and the poster proxy
// with signed URLs, its access rule and the media-server key kept out of every reply and log.
import { mediaLatestSchema, mediaResumeSchema, mediaStatsSchema } from '@usher/contracts';
import { addMediaItem } from '@usher/testkit';
import { errorOf, HOUR, MEDIA_KEY, startMediaWorld, type MediaWorld } from './harness.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Emby: numeric item ids, /Users/{id}/Items/Latest, images under
// /emby.
describe.each(domainFlavours('emby'))('media home on %s', (flavour) => {
  let w: MediaWorld;
  beforeAll(async () => {
    w = await startMediaWorld(flavour);
  });
  afterAll(async () => w.close());

  it('should give the public address for apps, without the key', async () => {
    const member = await w.member('alice');
    const res = await w.get('/api/v1/media/server', await w.token(member));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ configured: true, kind: flavour, publicUrl: w.fake.url });
    expect(JSON.stringify(body)).not.toContain(MEDIA_KEY);
  });

  it('should count the library and keep the counts 5 minutes per replica', async () => {
    const res = await w.get('/api/v1/media/stats', w.adminToken);
    expect(res.status).toBe(200);
    const stats = mediaStatsSchema.parse(await res.json());
    const items = [...w.fake.state.items.values()].filter((i) => i.locationType === 'FileSystem');
    expect(stats).toMatchObject({
      configured: true,
      movieCount: items.filter((i) => i.type === 'Movie').length,
      seriesCount: items.filter((i) => i.type === 'Series').length,
      episodeCount: items.filter((i) => i.type === 'Episode').length,
    });
    // A new film is not seen until the cache runs out; the bot's route shares the cache.
    const lib = w.fake.seeded!.libraries.movies;
    addMediaItem(w.fake.state, {
      type: 'Movie',
      name: 'Fresh Arrival',
      libraryId: lib.id,
      parentId: lib.id,
      dateCreated: w.clock.now,
      providerIds: {},
      hasPrimaryImage: false,
    });
    const internal = await w.get('/api/v1/internal/media/stats', undefined, {
      'x-internal-secret': w.t.config.INTERNAL_API_SECRET,
    });
    expect(internal.status).toBe(200);
    expect(await internal.json()).toEqual(stats);
    w.clock.now = new Date(w.clock.now.getTime() + 5 * 60_000 + 1000);
    const later = mediaStatsSchema.parse(
      await (await w.get('/api/v1/media/stats', w.adminToken)).json(),
    );
    expect(later.movieCount).toBe(stats.movieCount + 1);
    expect(later.cachedAt).toBe(w.clock.now.toISOString());
  });

  it('should refuse the bot route without the internal secret', async () => {
    const res = await w.get('/api/v1/internal/media/stats');
    expect(res.status).toBe(401);
  });

  it("should list what is new for the member's own account, with signed poster URLs", async () => {
    const bob = await w.member('bob');
    const res = await w.get('/api/v1/media/latest?type=movie&limit=50', await w.token(bob));
    expect(res.status).toBe(200);
    const latest = mediaLatestSchema.parse(await res.json());
    expect(latest.state).toBe('ok');
    const movies = Object.values(w.fake.seeded!.movies).map((m) => m.id);
    expect(latest.items.length).toBeGreaterThan(0);
    expect(latest.items.every((i) => movies.includes(i.itemId) || i.name === 'Fresh Arrival')).toBe(
      true,
    );
    for (const i of latest.items) {
      expect(i.posterUrl).toMatch(
        new RegExp(
          `^/api/v1/media/posters/${i.itemId}\\?u=${bob.id}&exp=\\d+&sig=[A-Za-z0-9_-]{43}$`,
        ),
      );
    }
    // Bob's account sees only the movie library: no series for him.
    const series = mediaLatestSchema.parse(
      await (await w.get('/api/v1/media/latest?type=series', await w.token(bob))).json(),
    );
    expect(series).toEqual({ state: 'ok', items: [] });
  });

  it("should show a new episode with its show's poster, and keep a URL for an item with no image", async () => {
    const alice = await w.member('alice');
    const token = await w.token(alice);
    const lib = w.fake.seeded!.libraries.shows;
    const base = { libraryId: lib.id, providerIds: {}, dateCreated: w.clock.now };
    const show = addMediaItem(w.fake.state, {
      ...base,
      type: 'Series',
      name: 'Night Ferry',
      parentId: lib.id,
    });
    const episode = addMediaItem(w.fake.state, {
      ...base,
      type: 'Episode',
      name: 'Crossing',
      parentId: show.id,
      seriesId: show.id,
      seriesName: show.name,
      parentIndexNumber: 1,
      indexNumber: 1,
    });
    const series = mediaLatestSchema.parse(
      await (await w.get('/api/v1/media/latest?type=series', token)).json(),
    );
    // One new episode comes as the episode itself; its card shows the show's 2:3 poster.
    const entry = series.items.find((i) => i.itemId === episode.id)!;
    expect(entry).toMatchObject({ name: 'Crossing', type: 'Episode', seriesName: 'Night Ferry' });
    expect(entry.posterUrl).toMatch(
      new RegExp(`^/api/v1/media/posters/${show.id}\\?u=${alice.id}&exp=\\d+&sig=`),
    );
    expect((await w.get(entry.posterUrl)).status).toBe(200);
    // A show without a poster: the episode's own image.
    show.hasPrimaryImage = false;
    try {
      const bare = mediaLatestSchema.parse(
        await (await w.get('/api/v1/media/latest?type=series', token)).json(),
      );
      expect(bare.items.find((i) => i.itemId === episode.id)!.posterUrl).toContain(
        `/posters/${episode.id}?`,
      );
    } finally {
      show.hasPrimaryImage = true;
    }
    // The contract wants a string: a film with no image keeps its own URL, which 404s to the
    // placeholder.
    const movies = mediaLatestSchema.parse(
      await (await w.get('/api/v1/media/latest?type=movie&limit=50', token)).json(),
    );
    const casablanca = w.fake.seeded!.movies.casablanca;
    const bare = movies.items.find((i) => i.itemId === casablanca.id)!;
    expect(bare.posterUrl).toContain(`/posters/${casablanca.id}?`);
    expect((await errorOf(await w.get(bare.posterUrl))).code).toBe('POSTER_NOT_FOUND');
  });

  it('should say why there is nothing: unlinked, expired or disabled', async () => {
    const loner = await w.user(`loner_${flavour}`);
    const expired = await w.user(`late_${flavour}`, {
      mediaUserId: w.fake.seeded!.users.carol!.id,
      expiresAt: new Date(w.clock.now.getTime() - HOUR),
    });
    const off = await w.user(`off_${flavour}`, {
      mediaUserId: w.fake.seeded!.users.admin!.id,
      mediaAccessDisabled: true,
    });
    for (const [row, state] of [
      [loner, 'unlinked'],
      [expired, 'expired'],
      [off, 'disabled'],
    ] as const) {
      for (const path of ['/api/v1/media/latest', '/api/v1/media/resume']) {
        const res = await w.get(path, await w.token(row));
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ state, items: [] });
      }
    }
  });

  // Issue 36: the overview's "continue watching" comes from the member's own resume points.
  it("should list where the member stopped, newest first, with signed posters (the show's for an episode)", async () => {
    const alice = await w.member('alice');
    const token = await w.token(alice);
    const res = await w.get('/api/v1/media/resume?limit=5', token);
    expect(res.status).toBe(200);
    const reply = mediaResumeSchema.parse(await res.json());
    const { dune } = w.fake.seeded!.movies;
    const severance = w.fake.seeded!.series.severance;
    expect(reply.state).toBe('ok');
    expect(reply.items.map((i) => i.itemId)).toEqual([dune.id, severance.episodes[1]!.id]);
    expect(reply.items[0]).toMatchObject({
      name: 'Dune: Part Two',
      type: 'Movie',
      positionSeconds: 45 * 60,
      runtimeSeconds: expect.any(Number),
      lastPlayedAt: expect.stringMatching(/Z$/),
    });
    expect(reply.items[0]!.percent).toBeCloseTo(
      (100 * 45 * 60) / reply.items[0]!.runtimeSeconds!,
      1,
    );
    expect(reply.items[1]).toMatchObject({ seriesName: 'Severance', season: 1, episode: 2 });
    expect(reply.items[1]!.posterUrl).toMatch(
      new RegExp(`^/api/v1/media/posters/${severance.series.id}\\?u=${alice.id}&exp=\\d+&sig=`),
    );
    expect((await w.get(reply.items[0]!.posterUrl)).status).toBe(200);
    // Bob's positions are his own: he stopped in an episode of a library his policy no longer
    // lets him see, which the server leaves out, as alice's never show up for him.
    const bob = mediaResumeSchema.parse(
      await (await w.get('/api/v1/media/resume', await w.token(await w.member('bob')))).json(),
    );
    expect(bob).toEqual({ state: 'ok', items: [] });
    expect((await w.get('/api/v1/media/resume?limit=0', token)).status).toBe(400);
    expect((await w.get('/api/v1/media/resume')).status).toBe(401);
  });

  describe('posters', () => {
    const posterOf = async (url: string, token?: string) => w.get(url, token);

    it('should serve an admin any poster with the bearer token, privately cached', async () => {
      const episode = w.fake.seeded!.series.severance.episodes[0]!;
      const res = await posterOf(`/api/v1/media/posters/${episode.id}?width=200`, w.adminToken);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    });

    it('should answer 404 POSTER_NOT_FOUND for an item outside the member libraries', async () => {
      const token = await w.token(await w.member('bob'));
      const dune = w.fake.seeded!.movies.dune;
      const episode = w.fake.seeded!.series.severance.episodes[0]!;
      expect((await posterOf(`/api/v1/media/posters/${dune.id}`, token)).status).toBe(200);
      const refused = await posterOf(`/api/v1/media/posters/${episode.id}`, token);
      expect(refused.status).toBe(404);
      expect((await errorOf(refused)).code).toBe('POSTER_NOT_FOUND');
      // An id the server does not know at all answers the same.
      const unknown = flavour === 'emby' ? '999999' : 'f'.repeat(32);
      expect((await errorOf(await posterOf(`/api/v1/media/posters/${unknown}`, token))).code).toBe(
        'POSTER_NOT_FOUND',
      );
    });

    it('should accept the signed URL in a plain <img>, and 404 a forged or expired one', async () => {
      const alice = await w.member('alice');
      const latest = mediaLatestSchema.parse(
        await (await w.get('/api/v1/media/latest?type=movie', await w.token(alice))).json(),
      );
      const url = latest.items.find((i) => i.name !== 'Fresh Arrival')!.posterUrl;
      const ok = await posterOf(url);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('image/jpeg');
      const forged = url.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
      expect((await errorOf(await posterOf(forged))).code).toBe('POSTER_NOT_FOUND');
      const otherItem = url.replace(
        /posters\/[^?]+/,
        `posters/${w.fake.seeded!.movies.oppenheimer.id}`,
      );
      expect((await posterOf(otherItem)).status).toBe(404);
      expect((await posterOf(url.replace(/u=[^&]+/, `u=${w.admin.id}`))).status).toBe(404);
      // No signature and no token: a placeholder, never 401.
      expect((await posterOf(url.split('?')[0]!)).status).toBe(404);
      const saved = w.clock.now;
      w.clock.now = new Date(saved.getTime() + 26 * HOUR);
      try {
        expect((await errorOf(await posterOf(url))).code).toBe('POSTER_NOT_FOUND');
      } finally {
        w.clock.now = saved;
      }
    });

    it('should never put the media-server key in a reply or a log line', async () => {
      const episode = w.fake.seeded!.series.bear.episodes[0]!;
      w.fake.fail(500, /Images/);
      try {
        const res = await posterOf(`/api/v1/media/posters/${episode.id}?width=300`, w.adminToken);
        expect(res.status).toBe(502);
        expect(await res.text()).not.toContain(MEDIA_KEY);
      } finally {
        w.fake.clearFaults();
      }
      const logs = w.t.logs.text();
      expect(logs.length).toBeGreaterThan(0);
      expect(logs).not.toContain(MEDIA_KEY);
    });
  });
});

describe('poster URLs and the session version (emby; the adapters cover jellyfin)', () => {
  let w: MediaWorld;
  beforeAll(async () => {
    w = await startMediaWorld('emby');
  });
  afterAll(async () => w.close());

  it('should end a signed poster URL with "sign out everywhere", as it ends the tokens', async () => {
    const alice = await w.member('alice');
    const token = await w.token(alice);
    const latest = mediaLatestSchema.parse(
      await (await w.get('/api/v1/media/latest?type=movie', token)).json(),
    );
    const url = latest.items.find((i) => i.name !== 'Fresh Arrival')!.posterUrl;
    expect((await w.get(url)).status).toBe(200);

    const out = await w.t.call('POST', '/api/v1/auth/logout', {
      token,
      body: { allDevices: true },
    });

    expect(out.status).toBe(204);
    const after = await w.get(url);
    expect(after.status).toBe(404);
    expect((await errorOf(after)).code).toBe('POSTER_NOT_FOUND');
    // A URL signed after signing in again works: the signature follows the new version.
    const { token: renewed } = await w.t.context.tokens.sign({
      sub: alice.id,
      role: 'user',
      ver: alice.tokenVersion + 1,
    });
    const again = mediaLatestSchema.parse(
      await (await w.get('/api/v1/media/latest?type=movie', renewed)).json(),
    );
    const fresh = again.items.find((i) => i.name !== 'Fresh Arrival')!.posterUrl;
    expect(fresh).not.toBe(url);
    expect((await w.get(fresh)).status).toBe(200);
  });
});

describe('media home without a media server', () => {
  let w: MediaWorld;
  beforeAll(async () => {
    w = await startMediaWorld('emby', { configured: false });
  });
  afterAll(async () => w.close());

  it('should say not configured instead of failing', async () => {
    const member = await w.member('alice');
    const token = await w.token(member);
    expect(await (await w.get('/api/v1/media/stats', token)).json()).toEqual({
      configured: false,
      movieCount: 0,
      seriesCount: 0,
      episodeCount: 0,
      cachedAt: null,
    });
    expect(await (await w.get('/api/v1/media/latest', token)).json()).toEqual({
      state: 'not_configured',
      items: [],
    });
    expect(await (await w.get('/api/v1/media/server', token)).json()).toEqual({
      configured: false,
      kind: 'emby',
      publicUrl: null,
    });
  });
});
