import { createRequestReplySchema, mediaRequestSchema, pageOf } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { mediaRequests } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { errorOf, startHarness, type Harness } from './harness.js';

// A request keeps its title's TMDB backdrop (issue 14, migration 0007) for the pages where the
// request is the subject.
describe(`request backdrops (${ENGINE})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const body = (tmdbId: number, over: Record<string, unknown> = {}) => ({
    type: 'MOVIE',
    tmdbId,
    season: 0,
    name: `Movie ${tmdbId}`,
    posterPath: '/poster.jpg',
    ...over,
  });

  it('should store the backdrop, answer it, and carry it into a resubmission', async () => {
    const m = await h.member();
    const res = await h.t.call('post', '/api/v1/media-requests', {
      token: m.token,
      body: body(8_100_001, { backdropPath: '/wide-8100001.jpg' }),
    });
    expect(res.status).toBe(201);
    const { request } = createRequestReplySchema.parse(await res.json());
    expect(request.backdropPath).toBe('/wide-8100001.jpg');
    const [row] = await h.t.context.db
      .select({ backdropPath: mediaRequests.backdropPath })
      .from(mediaRequests)
      .where(eq(mediaRequests.id, request.id));
    expect(row!.backdropPath).toBe('/wide-8100001.jpg');

    const list = pageOf(mediaRequestSchema).parse(
      await (await h.t.call('get', '/api/v1/media-requests', { token: m.token })).json(),
    );
    expect(list.data.find((r) => r.id === request.id)?.backdropPath).toBe('/wide-8100001.jpg');

    await h.t.context.db
      .update(mediaRequests)
      .set({ status: 'REJECTED', rejectReason: 'not now' })
      .where(eq(mediaRequests.id, request.id));
    const again = await h.t.call('post', `/api/v1/media-requests/${request.id}/resubmit`, {
      token: m.token,
      body: { note: 'please' },
    });
    expect(again.status).toBe(201);
    expect(createRequestReplySchema.parse(await again.json()).request.backdropPath).toBe(
      '/wide-8100001.jpg',
    );
  });

  it('should answer null without one, and refuse a malformed path with nothing stored', async () => {
    const m = await h.member();
    const res = await h.t.call('post', '/api/v1/media-requests', {
      token: m.token,
      body: body(8_100_002),
    });
    expect(createRequestReplySchema.parse(await res.json()).request.backdropPath).toBeNull();

    const bad = await h.t.call('post', '/api/v1/media-requests', {
      token: m.token,
      body: body(8_100_003, { backdropPath: 'https://evil.example/x.jpg' }),
    });
    expect((await errorOf(bad)).code).toBe('VALIDATION_FAILED');
    const rows = await h.t.context.db
      .select()
      .from(mediaRequests)
      .where(eq(mediaRequests.tmdbId, 8_100_003));
    expect(rows).toEqual([]);
  });
});
