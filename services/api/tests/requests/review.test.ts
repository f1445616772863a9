import {
  adminMediaRequestSchema,
  adminRequestReplySchema,
  createRequestReplySchema,
  pageOf,
  verifyIngestReplySchema,
} from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { auditLog, mediaRequests } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { errorOf, eventsFor, startHarness, type Harness } from './harness.js';

let h: Harness;
let admin: { id: string; username: string; token: string };
beforeAll(async () => {
  h = await startHarness();
  admin = await h.admin();
});
afterAll(() => h.close());

let nextId = 7_500_000;
async function pending(body: Record<string, unknown> = {}) {
  const m = await h.member();
  const tmdbId = ++nextId;
  const res = await h.t.call('post', '/api/v1/media-requests', {
    token: m.token,
    body: { type: 'MOVIE', tmdbId, season: 0, name: `Title ${tmdbId}`, year: 2020, ...body },
  });
  expect(res.status).toBe(201);
  return { member: m, request: createRequestReplySchema.parse(await res.json()).request };
}

const approve = (id: string) =>
  h.t.call('post', `/api/v1/admin/media-requests/${id}/approve`, { token: admin.token });
const reject = (id: string, reason: unknown = 'not available anywhere') =>
  h.t.call('post', `/api/v1/admin/media-requests/${id}/reject`, {
    token: admin.token,
    body: { reason },
  });
const rowOf = async (id: string) =>
  (await h.t.context.db.select().from(mediaRequests).where(eq(mediaRequests.id, id)))[0]!;

describe(`admin review (${ENGINE})`, () => {
  it('should approve a pending request, audit, notify and hand it to MoviePilot', async () => {
    const { request } = await pending();
    const res = await approve(request.id);
    expect(res.status).toBe(200);
    const reply = adminRequestReplySchema.parse(await res.json());
    expect(reply.request).toMatchObject({
      status: 'APPROVED',
      reviewSource: 'manual',
      reviewer: { username: admin.username },
      requester: { username: expect.any(String) },
    });
    await h.settle();
    const row = await rowOf(request.id);
    expect(row.reviewedVia).toBe('web');
    expect(row.dispatchedAt).toBeInstanceOf(Date);
    expect(row.automationRef).toMatch(/^\d+$/);
    expect(row.automationError).toBeNull();
    const sub = h.mp.state.subscriptions.find((s) => s.tmdbid === request.tmdbId);
    expect(sub).toMatchObject({ type: '电影', name: request.name, year: '2020' });
    expect(eventsFor(h.bot, request.id).map((e) => e.event)).toEqual(['created', 'approved']);
    expect(eventsFor(h.bot, request.id)[1]).toMatchObject({
      reviewer: { source: 'web', name: admin.username },
      adminMessages: [],
    });
    const audits = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'request.approve'), eq(auditLog.targetId, request.id)));
    expect(audits).toHaveLength(1);
  });

  it('should answer 409 to a second approve and change nothing', async () => {
    const { request } = await pending();
    expect((await approve(request.id)).status).toBe(200);
    const second = await approve(request.id);
    expect(await errorOf(second)).toEqual({
      status: 409,
      code: 'REQUEST_STATE_CHANGED',
      message: 'The request is already APPROVED',
      details: { status: 'APPROVED' },
    });
    await h.settle();
    expect(eventsFor(h.bot, request.id).filter((e) => e.event === 'approved')).toHaveLength(1);
  });

  it('should let exactly one of two concurrent approvals win', async () => {
    const { request } = await pending();
    const [a, b] = await Promise.all([approve(request.id), approve(request.id)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    await h.settle();
  });

  it('should refuse approve after reject, and reject after approve', async () => {
    const first = await pending();
    expect((await reject(first.request.id)).status).toBe(200);
    expect(await errorOf(await approve(first.request.id))).toMatchObject({
      status: 409,
      code: 'REQUEST_STATE_CHANGED',
      details: { status: 'REJECTED' },
    });
    expect((await rowOf(first.request.id)).status).toBe('REJECTED');

    const second = await pending();
    expect((await approve(second.request.id)).status).toBe(200);
    expect(await errorOf(await reject(second.request.id))).toMatchObject({
      status: 409,
      details: { status: 'APPROVED' },
    });
    await h.settle();
  });

  it('should reject with a required reason, notify and audit', async () => {
    const { request } = await pending();
    for (const bad of ['', '   ', 'x'.repeat(501), null]) {
      expect((await errorOf(await reject(request.id, bad))).code).toBe('VALIDATION_FAILED');
    }
    expect((await rowOf(request.id)).status).toBe('PENDING');
    const res = await reject(request.id, ' no such release ');
    const reply = adminRequestReplySchema.parse(await res.json());
    expect(reply.request).toMatchObject({ status: 'REJECTED', rejectReason: 'no such release' });
    await h.settle();
    expect(eventsFor(h.bot, request.id)[1]).toMatchObject({
      event: 'rejected',
      reason: 'no such release',
      reviewer: { source: 'web', name: admin.username },
    });
    const [audit] = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'request.reject'), eq(auditLog.targetId, request.id)));
    expect(audit!.details).toMatchObject({ reason: 'no such release' });
  });

  it('should answer 404 for unknown and malformed ids', async () => {
    for (const id of [uuidv7(), 'nope']) {
      expect(await errorOf(await approve(id))).toEqual({
        status: 404,
        code: 'REQUEST_NOT_FOUND',
        message: 'No such request',
      });
      expect((await errorOf(await reject(id))).code).toBe('REQUEST_NOT_FOUND');
      const del = await h.t.call('delete', `/api/v1/admin/media-requests/${id}`, {
        token: admin.token,
      });
      expect((await errorOf(del)).code).toBe('REQUEST_NOT_FOUND');
    }
  });

  it('should delete a request in any state', async () => {
    const { request } = await pending();
    await approve(request.id);
    const res = await h.t.call('delete', `/api/v1/admin/media-requests/${request.id}`, {
      token: admin.token,
    });
    expect(res.status).toBe(204);
    expect(
      await h.t.context.db.select().from(mediaRequests).where(eq(mediaRequests.id, request.id)),
    ).toHaveLength(0);
    const [audit] = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'request.delete'), eq(auditLog.targetId, request.id)));
    expect(audit!.details).toMatchObject({ status: 'APPROVED' });
    await h.settle();
  });

  it('should list with filters (status, type, user, search, automation error)', async () => {
    const a = await pending({ name: 'Zebra Crossing Unique' });
    const b = await pending({ type: 'TV', season: 2, name: 'Zebra Show Unique', tmdbId: 9100099 });
    await approve(a.request.id);
    await h.settle();
    const list = async (query: string) => {
      const res = await h.t.call('get', `/api/v1/admin/media-requests?${query}`, {
        token: admin.token,
      });
      expect(res.status).toBe(200);
      return pageOf(adminMediaRequestSchema).parse(await res.json());
    };
    expect((await list('search=zebra')).data.map((r) => r.id)).toEqual([
      b.request.id,
      a.request.id,
    ]);
    expect((await list('search=zebra&status=APPROVED')).data.map((r) => r.id)).toEqual([
      a.request.id,
    ]);
    expect((await list('search=zebra&type=TV')).data.map((r) => r.id)).toEqual([b.request.id]);
    expect((await list(`userId=${b.member.id}`)).data.map((r) => r.id)).toEqual([b.request.id]);
    expect((await list('search=zebra&hasAutomationError=true')).total).toBe(0);
    const page = await list('search=zebra&pageSize=1&page=2');
    expect(page).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(page.data[0]!.automation).toMatchObject({ error: null });
    expect(
      (
        await errorOf(
          await h.t.call('get', '/api/v1/admin/media-requests?status=NOPE', { token: admin.token }),
        )
      ).code,
    ).toBe('VALIDATION_FAILED');
  });

  describe('automation', () => {
    it('should keep the request APPROVED with the error when MoviePilot refuses, then redispatch', async () => {
      const { request } = await pending();
      h.mp.refuse(request.tmdbId, '无法识别媒体信息');
      const res = await approve(request.id);
      expect(res.status).toBe(200);
      await h.settle();
      const failed = await rowOf(request.id);
      expect(failed.status).toBe('APPROVED');
      expect(failed.automationError).toContain('无法识别媒体信息');
      expect(failed.dispatchedAt).toBeNull();

      const list = await h.t.call('get', '/api/v1/admin/media-requests?hasAutomationError=true', {
        token: admin.token,
      });
      const page = pageOf(adminMediaRequestSchema).parse(await list.json());
      expect(page.data.map((r) => r.id)).toContain(request.id);

      // Still refused: one synchronous try, answered with the upstream error.
      const again = await h.t.call(
        'post',
        `/api/v1/admin/media-requests/${request.id}/redispatch`,
        {
          token: admin.token,
        },
      );
      expect(await errorOf(again)).toMatchObject({
        status: 422,
        code: 'UPSTREAM_REJECTED',
        details: { system: 'automation' },
      });

      h.mp.state.refused.delete(request.tmdbId);
      const ok = await h.t.call('post', `/api/v1/admin/media-requests/${request.id}/redispatch`, {
        token: admin.token,
      });
      expect(ok.status).toBe(200);
      const reply = adminRequestReplySchema.parse(await ok.json());
      expect(reply.request.automation).toMatchObject({ error: null, ref: expect.any(String) });
      expect(reply.request.status).toBe('APPROVED');
      const audits = await h.t.context.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'request.redispatch'), eq(auditLog.targetId, request.id)))
        .orderBy(auditLog.id);
      expect(audits.map((a) => (a.details as { outcome: string }).outcome)).toEqual([
        'failed',
        'dispatched',
      ]);

      const twice = await h.t.call(
        'post',
        `/api/v1/admin/media-requests/${request.id}/redispatch`,
        {
          token: admin.token,
        },
      );
      expect((await errorOf(twice)).code).toBe('NOT_REDISPATCHABLE');
    });

    it('should store a timeout or outage as the error and stay APPROVED', async () => {
      const { request } = await pending();
      await h.mp.faults.down();
      try {
        await approve(request.id);
        await h.settle();
      } finally {
        await h.mp.faults.up();
      }
      const row = await rowOf(request.id);
      expect(row.status).toBe('APPROVED');
      expect(row.automationError).toEqual(expect.any(String));
    });

    it('should send nothing and store no error when automation is not configured or off', async () => {
      const variants: Record<string, string>[] = [
        { AUTOMATION_URL: '' },
        { AUTOMATION_AUTO_DISPATCH: 'false' },
      ];
      for (const extra of variants) {
        const app = h.appWith(extra);
        const { request } = await pending();
        const res = await app.call('post', `/api/v1/admin/media-requests/${request.id}/approve`, {
          token: admin.token,
        });
        expect(res.status).toBe(200);
        await h.settle(app);
        const row = await rowOf(request.id);
        expect(row).toMatchObject({
          status: 'APPROVED',
          automationError: null,
          dispatchedAt: null,
        });
        expect(h.mp.state.subscriptions.some((s) => s.tmdbid === request.tmdbId)).toBe(false);
      }
    });

    it('should send a TV season with its season number, and a whole series without', async () => {
      const season = await pending({
        type: 'TV',
        tmdbId: 1399,
        season: 2,
        name: 'Game of Thrones',
      });
      const whole = await pending({
        type: 'TV',
        tmdbId: 9200001,
        season: 0,
        name: 'Quiet Harbour',
      });
      await approve(season.request.id);
      await approve(whole.request.id);
      await h.settle();
      const subs = h.mp.state.subscriptions;
      expect(subs.find((s) => s.tmdbid === 1399)).toMatchObject({ type: '电视剧', season: 2 });
      const wholeSub = subs.find((s) => s.tmdbid === 9200001);
      expect(wholeSub).toMatchObject({ type: '电视剧' });
      expect(wholeSub!.season ?? null).toBeNull();
    });
  });

  describe('verify ingest', () => {
    const verify = (id: string) =>
      h.t.call('post', `/api/v1/admin/media-requests/${id}/verify-ingest`, { token: admin.token });

    it('should mark a movie in the library INGESTED, and refuse one that is not', async () => {
      const m = await h.member();
      const created = createRequestReplySchema.parse(
        await (
          await h.t.call('post', '/api/v1/media-requests', {
            token: m.token,
            body: {
              type: 'MOVIE',
              tmdbId: 76341,
              season: 0,
              name: 'Mad Max',
              confirmExisting: true,
            },
          })
        ).json(),
      );
      expect((await errorOf(await verify(created.request.id))).code).toBe('REQUEST_STATE_CHANGED');
      await approve(created.request.id);
      const res = await verify(created.request.id);
      expect(res.status).toBe(200);
      const reply = verifyIngestReplySchema.parse(await res.json());
      expect(reply).toMatchObject({ progress: null, request: { status: 'INGESTED' } });
      expect(reply.request.ingestedAt).not.toBeNull();
      await h.settle();
      expect(eventsFor(h.bot, created.request.id).at(-1)).toMatchObject({
        event: 'ingested',
        progress: null,
      });

      const missing = await pending();
      await approve(missing.request.id);
      expect(await errorOf(await verify(missing.request.id))).toEqual({
        status: 422,
        code: 'NOT_IN_LIBRARY',
        message: 'The movie is not in the library yet',
        details: { progress: null },
      });
      await h.settle();
    });

    it('should compare a season with the aired episodes and store the progress', async () => {
      const m = await h.member();
      const created = createRequestReplySchema.parse(
        await (
          await h.t.call('post', '/api/v1/media-requests', {
            token: m.token,
            body: {
              type: 'TV',
              tmdbId: 95396,
              season: 1,
              name: 'Severance',
              confirmExisting: true,
            },
          })
        ).json(),
      );
      await approve(created.request.id);
      const res = await verify(created.request.id);
      expect(await errorOf(res)).toEqual({
        status: 422,
        code: 'NOT_IN_LIBRARY',
        message: '3 of 9 aired episodes are in the library',
        details: { progress: { have: 3, total: 9, last: 'S01E03' } },
      });
      expect((await rowOf(created.request.id)).ingestProgress).toEqual({
        have: 3,
        total: 9,
        last: 'S01E03',
      });
      await h.settle();
    });
  });
});
