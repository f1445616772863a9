import {
  createRequestReplySchema,
  manualDispatchReplySchema,
  manualSearchReplySchema,
} from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { auditLog, mediaRequests } from '../../src/db/schema/index.js';
import { torrentContext } from '@usher/testkit';
import { ENGINE } from '../support/database.js';
import { errorOf, startHarness, type Harness } from './harness.js';

describe(`manual search and dispatch (${ENGINE})`, () => {
  let h: Harness;
  let admin: { token: string };
  beforeAll(async () => {
    h = await startHarness({ settings: { AUTOMATION_AUTO_DISPATCH: 'false' } });
    admin = await h.admin();
  });
  afterAll(() => h.close());

  async function request(body: Record<string, unknown>, approve = true) {
    const m = await h.member();
    const res = await h.t.call('post', '/api/v1/media-requests', {
      token: m.token,
      body: { confirmExisting: true, ...body },
    });
    const json: unknown = await res.json();
    expect([res.status, json]).toEqual([201, expect.anything()]);
    const { request: created } = createRequestReplySchema.parse(json);
    if (approve) {
      await h.t.call('post', `/api/v1/admin/media-requests/${created.id}/approve`, {
        token: admin.token,
      });
    }
    return created;
  }
  const search = (id: string, body: unknown = {}) =>
    h.t.call('post', `/api/v1/admin/media-requests/${id}/search`, { token: admin.token, body });
  const dispatch = (id: string, candidateIndex: number) =>
    h.t.call('post', `/api/v1/admin/media-requests/${id}/dispatch`, {
      token: admin.token,
      body: { candidateIndex },
    });

  it('should search, store the candidates and send the chosen one back unchanged', async () => {
    const dune = await request({ type: 'MOVIE', tmdbId: 438631, season: 0, name: 'Dune' });
    const res = await search(dune.id);
    expect(res.status).toBe(200);
    const reply = manualSearchReplySchema.parse(await res.json());
    expect(reply.candidates).toHaveLength(2);
    expect(reply.candidates[0]).toMatchObject({ index: 0, site: 'HDHome', seeders: 120 });
    const [row] = await h.t.context.db
      .select()
      .from(mediaRequests)
      .where(eq(mediaRequests.id, dune.id));
    expect(row!.automationCandidates).toHaveLength(2);
    expect(row!.candidatesSearchedAt).toBeInstanceOf(Date);

    const sent = await dispatch(dune.id, 1);
    expect(sent.status).toBe(200);
    const accepted = manualDispatchReplySchema.parse(await sent.json());
    expect(accepted).toMatchObject({
      accepted: true,
      request: { status: 'APPROVED', automation: { error: null, ref: expect.any(String) } },
    });
    const download = h.mp.state.downloads.at(-1)!;
    expect(download.torrent_in).toEqual(row!.automationCandidates![1]!.raw);
    const [audit] = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'request.dispatch'), eq(auditLog.targetId, dune.id)));
    expect(audit).toBeDefined();

    expect(await errorOf(await dispatch(dune.id, 7))).toEqual({
      status: 404,
      code: 'CANDIDATE_NOT_FOUND',
      message: 'That candidate is gone; search again',
    });
  });

  it('should need a season for a whole series, and an APPROVED request', async () => {
    const got = await request({ type: 'TV', tmdbId: 1399, season: 0, name: 'Game of Thrones' });
    expect(await errorOf(await search(got.id))).toMatchObject({
      status: 422,
      code: 'SEASON_REQUIRED',
    });
    const found = manualSearchReplySchema.parse(await (await search(got.id, { season: 1 })).json());
    expect(found.candidates.map((c) => c.title)).toEqual([
      'Game.of.Thrones.S01.1080p.BluRay.x265-RARBG',
    ]);
    const pending = await request(
      { type: 'MOVIE', tmdbId: 3_300_001, season: 0, name: 'Pending' },
      false,
    );
    expect(await errorOf(await search(pending.id))).toMatchObject({
      status: 409,
      code: 'REQUEST_STATE_CHANGED',
      details: { status: 'PENDING' },
    });
  });

  it('should answer 422 when MoviePilot refuses, and NOT_SUPPORTED with the servarr kind', async () => {
    h.mp.state.torrents.push(
      torrentContext(
        {
          tmdbid: 3_400_001,
          type: '电影',
          title: 'Fresh',
          year: '2025',
          release: 'Fresh.2025.1080p.WEB-DL.H264-GRP',
          size: 4_000_000_000,
          seeders: 5,
          site: 'HDHome',
          volumeFactor: '普通',
        },
        h.mp.state.torrents.length,
      ),
    );
    const got = await request({ type: 'MOVIE', tmdbId: 3_400_001, season: 0, name: 'Fresh' });
    const found = manualSearchReplySchema.parse(await (await search(got.id)).json());
    expect(found.candidates).toHaveLength(1);
    h.mp.state.failDownloads = true;
    try {
      expect(await errorOf(await dispatch(got.id, 0))).toMatchObject({
        status: 422,
        code: 'UPSTREAM_REJECTED',
        details: { system: 'automation' },
      });
    } finally {
      h.mp.state.failDownloads = false;
    }
    const servarr = h.appWith({ AUTOMATION_KIND: 'servarr', AUTOMATION_API_KEY: h.mp.apiToken });
    const res = await servarr.call('post', `/api/v1/admin/media-requests/${got.id}/search`, {
      token: admin.token,
      body: {},
    });
    expect(await errorOf(res)).toMatchObject({
      status: 503,
      code: 'NOT_SUPPORTED',
      details: { system: 'automation' },
    });
  });
});
