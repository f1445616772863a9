// The poster wall behind sign-in (docs/media.md "Poster wall"): anonymous, pictures only, chosen
// at most hourly and served from the poster cache, so visitors never reach the media server.
import { posterWallSchema, POSTER_WALL_SIZE } from '@usher/contracts';
import { errorOf, HOUR, startMediaWorld, type MediaWorld } from './harness.js';
import { domainFlavours } from '../support/flavours.js';

describe.each(domainFlavours('jellyfin'))('poster wall on %s', (flavour) => {
  let w: MediaWorld;
  beforeAll(async () => {
    w = await startMediaWorld(flavour);
  });
  afterAll(async () => w.close());

  const wall = async () => {
    const res = await w.get('/api/v1/public/poster-wall');
    expect(res.status).toBe(200);
    return { res, body: posterWallSchema.parse(await res.json()) };
  };

  it('should list slots of movies and shows with posters, naming no item, for anyone', async () => {
    const { res, body } = await wall();
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    const withPosters = [...w.fake.state.items.values()].filter(
      (i) => (i.type === 'Movie' || i.type === 'Series') && i.hasPrimaryImage,
    );
    expect(body.posters).toHaveLength(Math.min(POSTER_WALL_SIZE, withPosters.length));
    body.posters.forEach((url, slot) =>
      expect(url).toMatch(new RegExp(`^/api/v1/public/poster-wall/${slot}\\?v=[0-9a-f]{8}$`)),
    );
    const text = JSON.stringify(body);
    for (const item of w.fake.state.items.values()) {
      expect(text).not.toContain(item.id);
      expect(text).not.toContain(item.name);
    }
  });

  it('should serve each slot as a small cached image, reading the server once an hour', async () => {
    w.fake.clearRequests();
    w.clock.now = new Date(w.clock.now.getTime() + HOUR + 1000);
    const { body } = await wall();
    for (let i = 0; i < 5; i++) await wall();
    const first = body.posters[0]!;
    const tile = await w.get(first);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('image/jpeg');
    expect(tile.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(tile.headers.get('x-content-type-options')).toBe('nosniff');
    const jpeg = Buffer.from(await tile.arrayBuffer());
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    for (let i = 0; i < 5; i++) expect((await w.get(first)).status).toBe(200);
    const reads = w.fake.requests().filter((r) => /\/items(\?|$)/i.test(r.path));
    const images = w.fake.requests('/Images/Primary');
    expect(reads).toHaveLength(1);
    expect(images).toHaveLength(1);
    // Small and low quality: the whole wall must fit the first visit's budget.
    expect(images[0]!.query).toMatchObject({ maxWidth: '96', quality: '50' });
    expect(jpeg.length).toBeLessThan(4 * 1024);
    // The slots are distinct posters.
    const second = Buffer.from(await (await w.get(body.posters[1]!)).arrayBuffer());
    expect(second.equals(jpeg)).toBe(false);
  });

  it('should answer 404 for an empty slot and 400 for one beyond the wall', async () => {
    const { body } = await wall();
    const empty = await w.get(`/api/v1/public/poster-wall/${body.posters.length}`);
    if (body.posters.length < POSTER_WALL_SIZE) {
      expect(empty.status).toBe(404);
      expect((await errorOf(empty)).code).toBe('POSTER_NOT_FOUND');
    }
    const beyond = await w.get(`/api/v1/public/poster-wall/${POSTER_WALL_SIZE}`);
    expect(beyond.status).toBe(400);
    expect((await errorOf(beyond)).code).toBe('VALIDATION_FAILED');
    expect((await w.get('/api/v1/public/poster-wall/x')).status).toBe(400);
  });

  it('should show an empty wall while the server is down, and retry after five minutes', async () => {
    w.clock.now = new Date(w.clock.now.getTime() + HOUR + 1000);
    w.fake.fail(503, /\/items$/i);
    expect((await wall()).body.posters).toEqual([]);
    w.fake.clearFaults();
    expect((await wall()).body.posters).toEqual([]);
    w.clock.now = new Date(w.clock.now.getTime() + 5 * 60_000 + 1000);
    expect((await wall()).body.posters.length).toBeGreaterThan(0);
  });
});

describe('poster wall without a media server', () => {
  it('should be empty', async () => {
    const w = await startMediaWorld('jellyfin', { configured: false });
    try {
      const res = await w.get('/api/v1/public/poster-wall');
      expect(await res.json()).toEqual({ posters: [] });
      expect((await w.get('/api/v1/public/poster-wall/0')).status).toBe(404);
    } finally {
      await w.close();
    }
  });
});
