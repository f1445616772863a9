import { discoverReplySchema, titleDetailsSchema } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { mediaRequests, tmdbCache } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { errorOf, startHarness, type Harness } from '../requests/harness.js';

// Issue 36: the new-request page opens on TMDB's trending, popular and upcoming titles, every
// card badged before any click; a card opens the title sheet (details, cast, per-season status).
describe(`metadata discovery and the title sheet (${ENGINE})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const tmdbCalls = (path: string) => h.tmdb.requests.filter((r) => r.path === path).length;

  async function discover(token: string) {
    const res = await h.t.call('get', '/api/v1/metadata/discover', { token });
    expect(res.status).toBe(200);
    return discoverReplySchema.parse(await res.json());
  }
  async function title(token: string, mediaType: 'movie' | 'tv', tmdbId: number) {
    const res = await h.t.call('get', `/api/v1/metadata/titles/${mediaType}/${tmdbId}`, { token });
    expect(res.status).toBe(200);
    return titleDetailsSchema.parse(await res.json());
  }
  const rail = (reply: Awaited<ReturnType<typeof discover>>, name: string) =>
    reply.rails.find((r) => r.rail === name)!.data;

  it('should list trending, popular and upcoming rails with every title badged, and cache them', async () => {
    const bob = await h.member();
    const reply = await discover(bob.token);

    expect(reply.rails.map((r) => r.rail)).toEqual([
      'trending',
      'popular_movies',
      'popular_tv',
      'upcoming',
    ]);
    expect(rail(reply, 'upcoming').map((r) => r.tmdbId)).toEqual([1311031]);
    expect(rail(reply, 'popular_movies').every((r) => r.mediaType === 'movie')).toBe(true);
    expect(rail(reply, 'popular_tv').every((r) => r.mediaType === 'tv')).toBe(true);
    // Every card carries its availability, from the library before anyone asked.
    for (const r of reply.rails) {
      expect(r.data.every((t) => t.availability !== undefined)).toBe(true);
    }
    expect(rail(reply, 'trending').find((t) => t.tmdbId === 95396)?.availability).toEqual({
      state: 'in_library',
      ownRequestId: null,
    });
    expect(
      rail(reply, 'popular_movies').find((t) => t.tmdbId === 693134)?.availability?.state,
    ).toBe('in_library');
    expect(
      rail(reply, 'popular_movies').find((t) => t.tmdbId === 438631)?.availability?.state,
    ).toBe('none');

    // Cached, so every visit may read them: the per-IP limit (30 a minute) does not apply.
    const before = tmdbCalls('/3/movie/popular');
    for (let i = 0; i < 31; i++) await discover(bob.token);
    expect(tmdbCalls('/3/movie/popular')).toBe(before);
    const keys = (await h.t.context.db.select().from(tmdbCache)).map((r) => r.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'discover:trending:en-US',
        'discover:popular_movies:en-US',
        'discover:popular_tv:en-US',
        'discover:upcoming:en-US',
      ]),
    );
  });

  it("should badge a rail card with the caller's request, and the caller's refusal as rejected", async () => {
    const alice = await h.member();
    const bob = await h.member();
    const res = await h.t.call('post', '/api/v1/media-requests', {
      token: alice.token,
      body: { type: 'MOVIE', tmdbId: 1311031, season: 0, name: 'The Long Orbit' },
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { request: { id: string } }).request.id;
    expect(rail(await discover(alice.token), 'upcoming')[0]!.availability).toEqual({
      state: 'requested',
      ownRequestId: id,
    });

    await h.t.context.db
      .update(mediaRequests)
      .set({ status: 'REJECTED', rejectReason: 'not yet out' })
      .where(eq(mediaRequests.id, id));
    expect(rail(await discover(alice.token), 'upcoming')[0]!.availability).toEqual({
      state: 'rejected',
      ownRequestId: id,
    });
    // Another member's refusal is none of bob's business.
    expect(rail(await discover(bob.token), 'upcoming')[0]!.availability).toEqual({
      state: 'none',
      ownRequestId: null,
    });
  });

  it('should refuse discovery and titles to a caller without a session', async () => {
    expect((await h.t.call('get', '/api/v1/metadata/discover')).status).toBe(401);
    expect((await h.t.call('get', '/api/v1/metadata/titles/movie/438631')).status).toBe(401);
  });

  it("should give a movie's sheet: backdrop, rating, runtime, genres, cast and availability", async () => {
    const bob = await h.member();
    const dune = await title(bob.token, 'movie', 438631);

    expect(dune).toMatchObject({
      tmdbId: 438631,
      mediaType: 'movie',
      title: 'Dune',
      year: 2021,
      runtime: 155,
      backdropPath: '/backdrop-438631.jpg',
      genres: ['Science Fiction', 'Adventure'],
      cast: [
        { name: 'Timothée Chalamet', character: 'Paul Atreides', profilePath: '/chalamet.jpg' },
      ],
      seasons: [],
      availability: { state: 'none', ownRequestId: null },
    });
    expect(dune.voteAverage).toBeGreaterThan(0);
    expect((await title(bob.token, 'movie', 693134)).availability.state).toBe('in_library');

    const before = tmdbCalls('/3/movie/438631');
    await title(bob.token, 'movie', 438631);
    expect(tmdbCalls('/3/movie/438631')).toBe(before);
  });

  it('should give each season of a series its own status from the library and requests', async () => {
    const alice = await h.member();
    const bob = await h.member();
    // The fake library has three of season 1's nine episodes and two of season 2's ten.
    const first = await title(bob.token, 'tv', 95396);
    expect(first.seasons.map((s) => [s.seasonNumber, s.state])).toEqual([
      [1, 'missing'],
      [2, 'missing'],
      [3, 'none'],
    ]);
    expect(first.cast).toEqual([
      { name: 'Adam Scott', character: 'Mark Scout', profilePath: '/adam-scott.jpg' },
    ]);
    expect(first.runtime).toBeNull();

    const res = await h.t.call('post', '/api/v1/media-requests', {
      token: alice.token,
      body: { type: 'TV', tmdbId: 95396, season: 3, name: 'Severance', confirmExisting: true },
    });
    expect(res.status).toBe(201);
    const after = await title(bob.token, 'tv', 95396);
    expect(after.seasons.find((s) => s.seasonNumber === 3)?.state).toBe('requested');
    expect(after.seasons.find((s) => s.seasonNumber === 1)?.state).toBe('missing');
  });

  it('should answer 404 METADATA_NOT_FOUND for an unknown title and 400 for a bad type', async () => {
    const bob = await h.member();
    const missing = await h.t.call('get', '/api/v1/metadata/titles/movie/999999999', {
      token: bob.token,
    });
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe('METADATA_NOT_FOUND');
    const bad = await h.t.call('get', '/api/v1/metadata/titles/person/17414', { token: bob.token });
    expect(bad.status).toBe(400);
  });

  it('should answer 502 when TMDB is down and nothing is cached', async () => {
    const bob = await h.member();
    await h.t.context.db.delete(tmdbCache);
    h.tmdb.faults.fail(503);
    try {
      const res = await h.t.call('get', '/api/v1/metadata/discover', { token: bob.token });
      expect(res.status).toBe(502);
    } finally {
      await h.tmdb.faults.clear();
    }
  });
});
