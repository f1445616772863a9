import { metadataSearchReplySchema, type MetadataResult } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { jest } from '@jest/globals';
import { mediaRequests } from '../../src/db/schema/index.js';
import { IntegrationError } from '../../src/integrations/errors.js';
import { libraryTitles, searchAvailability } from '../../src/modules/requests/index.js';
import { ENGINE } from '../support/database.js';
import { startHarness, type Harness } from '../requests/harness.js';

// Search results' availability (issue 14, docs/requests.md "Availability badges"): every member's
// active requests, never who made them; the caller's own request id only.
describe(`metadata search availability (${ENGINE})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  async function search(query: string, token?: string): Promise<MetadataResult[]> {
    const res = await h.t.call('get', `/api/v1/metadata/search?${query}`, { token });
    expect(res.status).toBe(200);
    return metadataSearchReplySchema.parse(await res.json()).data;
  }
  const find = (data: MetadataResult[], tmdbId: number) => data.find((r) => r.tmdbId === tmdbId)!;

  async function request(token: string, body: Record<string, unknown>): Promise<string> {
    // confirmExisting: the fake library already holds some of these titles.
    const res = await h.t.call('post', '/api/v1/media-requests', {
      token,
      body: { ...body, confirmExisting: true },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { request: { id: string } }).request.id;
  }
  const requestMovie = (token: string, tmdbId: number, name: string) =>
    request(token, { type: 'MOVIE', tmdbId, season: 0, name });
  /** The availability `token`'s caller sees on title `tmdbId` among the results of `query`. */
  const availabilityOf = async (query: string, token: string, tmdbId: number) =>
    find(await search(query, token), tmdbId).availability;
  const setRow = (id: string, values: Partial<typeof mediaRequests.$inferInsert>) =>
    h.t.context.db.update(mediaRequests).set(values).where(eq(mediaRequests.id, id));

  it("should badge another member's request as requested without naming the requester", async () => {
    const alice = await h.member();
    const bob = await h.member();
    const id = await requestMovie(alice.token, 14337, 'Primer');

    const res = await h.t.call('get', '/api/v1/metadata/search?query=primer', { token: bob.token });
    const text = await res.text();
    const data = metadataSearchReplySchema.parse(JSON.parse(text)).data;
    expect(find(data, 14337).availability).toEqual({ state: 'requested', ownRequestId: null });
    // Every result of the page carries one.
    expect(data.every((r) => r.availability !== undefined)).toBe(true);
    // Neither who asked nor which request it is reaches another member.
    for (const secret of [alice.username, alice.id, id]) expect(text).not.toContain(secret);

    // The requester sees the same state and their own request's id.
    expect(await availabilityOf('query=primer', alice.token, 14337)).toEqual({
      state: 'requested',
      ownRequestId: id,
    });
  });

  // Issue 36: the badge came only from requests, so a title on the server showed nothing until
  // the member pressed Request (and was forgotten on reload).
  it('should badge what the library holds as in library before anyone asks for it', async () => {
    const bob = await h.member();
    // The fake library holds Dune: Part Two and Severance (seed catalogue), nobody asked.
    expect(await availabilityOf('query=dune', bob.token, 693134)).toEqual({
      state: 'in_library',
      ownRequestId: null,
    });
    expect(await availabilityOf('query=severance&type=tv', bob.token, 95396)).toEqual({
      state: 'in_library',
      ownRequestId: null,
    });
    // Dune (2021) is not on the server and nobody asked: "none".
    expect(await availabilityOf('query=dune', bob.token, 438631)).toEqual({
      state: 'none',
      ownRequestId: null,
    });
  });

  it('should leave the library out when the media server cannot answer', async () => {
    const warn = jest.fn();
    const failing = (kind: 'not_configured' | 'network') => ({
      logger: { warn } as never,
      integrations: {
        mediaServer: {
          get: () => Promise.reject(new IntegrationError('media_server', 'get', kind, 'down')),
        },
      } as never,
    });
    const titles = [{ mediaType: 'movie' as const, tmdbId: 693134 }];
    expect(await libraryTitles(failing('network'), titles)).toEqual(new Set());
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await libraryTitles(failing('not_configured'), titles)).toEqual(new Set());
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('should answer without the library when the media server is slower than the deadline', async () => {
    const never = {
      logger: { warn: jest.fn() } as never,
      integrations: {
        mediaServer: {
          get: async () => ({ tmdbIdsInLibrary: () => new Promise<Set<number>>(() => undefined) }),
        },
      } as never,
    };
    jest.useFakeTimers();
    try {
      const answer = libraryTitles(never, [{ mediaType: 'movie', tmdbId: 693134 }], 50);
      await jest.advanceTimersByTimeAsync(50);
      await expect(answer).resolves.toEqual(new Set());
    } finally {
      jest.useRealTimers();
    }
  });

  it('should leave anonymous, bad-token and bot searches in the spec shape', async () => {
    const anonymous = await search('query=dune');
    expect(anonymous.some((r) => 'availability' in r)).toBe(false);
    const forged = await search('query=dune', 'aaa.bbb.ccc');
    expect(forged.some((r) => 'availability' in r)).toBe(false);
    const res = await h.t.call('get', '/api/v1/internal/metadata/search?query=dune', {
      headers: { 'x-internal-secret': h.t.config.INTERNAL_API_SECRET },
    });
    const bot = metadataSearchReplySchema.parse(await res.json()).data;
    expect(bot.some((r) => 'availability' in r)).toBe(false);
  });

  it('should tell approved, in library and missing episodes apart, the most available winning', async () => {
    const alice = await h.member();
    const bob = await h.member();
    const movie = await requestMovie(alice.token, 1170608, 'Dune: Part Three');
    await setRow(movie, { status: 'APPROVED' });
    expect((await availabilityOf('query=dune', bob.token, 1170608))?.state).toBe('approved');
    await setRow(movie, { status: 'INGESTED', ingestedAt: new Date() });
    expect(await availabilityOf('query=dune', bob.token, 1170608)).toEqual({
      state: 'in_library',
      ownRequestId: null,
    });

    // A series: alice's season 1 is pending, bob's season 2 came in with episodes missing.
    const s1 = await request(alice.token, { type: 'TV', tmdbId: 95396, season: 1, name: 'S' });
    const s2 = await request(bob.token, { type: 'TV', tmdbId: 95396, season: 2, name: 'S' });
    await setRow(s2, {
      status: 'INGESTED',
      ingestedAt: new Date(),
      ingestProgress: { have: 3, total: 10, last: 'S02E03' },
    });
    // The state is the most available request's; the id is alice's own (season 1), not bob's.
    expect(await availabilityOf('query=severance&type=tv', alice.token, 95396)).toEqual({
      state: 'missing',
      ownRequestId: s1,
    });
    expect(await availabilityOf('query=severance&type=tv', bob.token, 95396)).toEqual({
      state: 'missing',
      ownRequestId: s2,
    });
  });

  // Issue 36: the requester sees their refusal ("Rejected"); nobody else's state changes.
  it('should show a rejected request only to its requester, and let an active one win', async () => {
    const alice = await h.member();
    const bob = await h.member();
    const id = await requestMovie(alice.token, 438631, 'Dune');
    await setRow(id, { status: 'REJECTED', rejectReason: 'no' });
    expect(await availabilityOf('query=dune', alice.token, 438631)).toEqual({
      state: 'rejected',
      ownRequestId: id,
    });
    expect(await availabilityOf('query=dune', bob.token, 438631)).toEqual({
      state: 'none',
      ownRequestId: null,
    });
    const bobs = await requestMovie(bob.token, 438631, 'Dune');
    expect(await availabilityOf('query=dune', alice.token, 438631)).toEqual({
      state: 'requested',
      ownRequestId: id,
    });
    await setRow(bobs, { status: 'REJECTED', rejectReason: 'no' });
  });

  it('should read a whole page with one select', async () => {
    const member = await h.member();
    const titles = Array.from({ length: 20 }, (_, i) => ({
      mediaType: i % 2 === 0 ? ('movie' as const) : ('tv' as const),
      tmdbId: 5_000_000 + i,
    }));
    const db = h.t.context.db;
    const select = jest.spyOn(db, 'select');
    try {
      const states = await searchAvailability(db, member.id, titles);
      expect(states.size).toBe(20);
      expect(select).toHaveBeenCalledTimes(1);
      select.mockClear();
      await searchAvailability(db, member.id, []);
      expect(select).not.toHaveBeenCalled();
    } finally {
      select.mockRestore();
    }
  });
});
