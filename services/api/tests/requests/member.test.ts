import { auditLog, mediaRequests, users } from '../../src/db/schema/index.js';
import {
  checkExistingReplySchema,
  createRequestReplySchema,
  mediaRequestSchema,
  pageOf,
} from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { ENGINE } from '../support/database.js';
import { errorOf, eventsFor, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

let nextId = 7_000_000;
const movie = (over: Record<string, unknown> = {}) => ({
  type: 'MOVIE',
  tmdbId: ++nextId,
  season: 0,
  name: `Movie ${nextId}`,
  year: 2024,
  posterPath: '/poster.jpg',
  ...over,
});

async function create(token: string, body: unknown) {
  return h.t.call('post', '/api/v1/media-requests', { token, body });
}

describe(`member requests (${ENGINE})`, () => {
  it('should create a PENDING request, audit it and push the created event', async () => {
    const m = await h.member();
    const body = movie({ note: 'please' });
    const res = await create(m.token, body);
    expect(res.status).toBe(201);
    const reply = createRequestReplySchema.parse(await res.json());
    expect(reply.outcome).toBe('created');
    expect(reply.request).toMatchObject({
      type: 'MOVIE',
      tmdbId: body.tmdbId,
      season: 0,
      status: 'PENDING',
      note: 'please',
      reviewSource: null,
      reviewer: null,
    });
    await h.settle();
    const [event] = eventsFor(h.bot, reply.request.id);
    expect(event).toMatchObject({
      event: 'created',
      subscription: {
        id: reply.request.id,
        mediaType: 'movie',
        tmdbId: body.tmdbId,
        note: 'please',
        requester: { userId: m.id, username: m.username, messengerId: null, locale: null },
      },
    });
    const audits = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'request.create'), eq(auditLog.targetId, reply.request.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorType: 'user', actorId: m.id });
  });

  it('should answer REQUEST_EXISTS for the same title, whoever asks', async () => {
    const a = await h.member();
    const b = await h.member();
    const body = movie();
    const first = createRequestReplySchema.parse(await (await create(a.token, body)).json());
    const again = await errorOf(await create(b.token, body));
    expect(again).toEqual({
      status: 409,
      code: 'REQUEST_EXISTS',
      message: 'This title already has an active request',
      details: { requestId: first.request.id, status: 'PENDING' },
    });
  });

  it('should block a season while the whole series is requested, but not the other way round', async () => {
    const m = await h.member();
    const whole = { type: 'TV', tmdbId: 1399, season: 0, name: 'Game of Thrones' };
    const created = createRequestReplySchema.parse(await (await create(m.token, whole)).json());
    const season = await errorOf(await create(m.token, { ...whole, season: 3 }));
    expect(season.code).toBe('REQUEST_EXISTS');
    expect(season.details).toEqual({ requestId: created.request.id, status: 'PENDING' });

    const other = { type: 'TV', tmdbId: 9200001, season: 1, name: 'Quiet Harbour' };
    expect((await create(m.token, other)).status).toBe(201);
    expect((await create(m.token, { ...other, season: 0 })).status).toBe(201);
  });

  it('should ask for confirmation when the title is in the library', async () => {
    const m = await h.member();
    const dune = { type: 'MOVIE', tmdbId: 693134, season: 0, name: 'Dune: Part Two' };
    const refused = await errorOf(await create(m.token, dune));
    expect(refused.status).toBe(409);
    expect(refused.code).toBe('ALREADY_IN_LIBRARY');
    expect(refused.details).toMatchObject({
      summary: { matchType: 'movie', seasons: [], episodeCount: 0 },
    });
    const rows = await h.t.context.db
      .select()
      .from(mediaRequests)
      .where(eq(mediaRequests.tmdbId, 693134));
    expect(rows).toHaveLength(0);

    const confirmed = await create(m.token, { ...dune, confirmExisting: true });
    expect(confirmed.status).toBe(201);
  });

  it('should report library state and the active request in check-existing', async () => {
    const m = await h.member();
    const check = async (body: unknown) => {
      const res = await h.t.call('post', '/api/v1/media-requests/check-existing', {
        token: m.token,
        body,
      });
      expect(res.status).toBe(200);
      return checkExistingReplySchema.parse(await res.json());
    };
    const severanceS1 = await check({ type: 'TV', tmdbId: 95396, season: 1 });
    expect(severanceS1).toMatchObject({
      inLibrary: true,
      detection: 'ok',
      summary: { matchType: 'season', seasons: [1, 2], episodeCount: 3 },
    });
    expect(severanceS1.activeRequest).toBeUndefined();
    const s3 = await check({ type: 'TV', tmdbId: 95396, season: 3 });
    expect(s3).toEqual({ inLibrary: false, detection: 'ok' });

    const body = movie();
    const created = createRequestReplySchema.parse(await (await create(m.token, body)).json());
    const requested = await check({ type: 'MOVIE', tmdbId: body.tmdbId, season: 0 });
    expect(requested.activeRequest).toEqual({ id: created.request.id, status: 'PENDING' });

    const noMedia = h.appWith({ MEDIA_SERVER_URL: '' });
    const res = await noMedia.call('post', '/api/v1/media-requests/check-existing', {
      token: m.token,
      body: { type: 'MOVIE', tmdbId: 872585, season: 0 },
    });
    expect(await res.json()).toEqual({ inLibrary: false, detection: 'not_configured' });
  });

  it('should refuse members without a linked or enabled media account, but not admins', async () => {
    const unlinked = await h.user();
    expect(await errorOf(await create(unlinked.token, movie()))).toMatchObject({
      status: 422,
      code: 'MEDIA_ACCOUNT_UNLINKED',
    });
    const expired = await h.user((b) => b.linkedTo('b'.repeat(32)).expired());
    expect(await errorOf(await create(expired.token, movie()))).toMatchObject({
      status: 422,
      code: 'MEDIA_ACCESS_REQUIRED',
    });
    const switchedOff = await h.user((b) => b.linkedTo('c'.repeat(32)));
    await h.t.context.db
      .update(users)
      .set({ mediaAccessDisabled: true })
      .where(eq(users.id, switchedOff.id));
    expect((await errorOf(await create(switchedOff.token, movie()))).code).toBe(
      'MEDIA_ACCESS_REQUIRED',
    );
    const admin = await h.admin();
    expect((await create(admin.token, movie())).status).toBe(201);
  });

  it('should reject bad input with 400 and change nothing', async () => {
    const m = await h.member();
    const bad = [
      movie({ season: 2 }),
      movie({ tmdbId: 0 }),
      movie({ name: '' }),
      movie({ posterPath: 'no-slash.jpg' }),
      movie({ note: 'x'.repeat(501) }),
      movie({ extra: true }),
      { type: 'TV', tmdbId: 5, season: 201, name: 'x' },
    ];
    for (const body of bad) {
      expect((await errorOf(await create(m.token, body))).code).toBe('VALIDATION_FAILED');
    }
    const [row] = await h.t.context.db
      .select()
      .from(mediaRequests)
      .where(eq(mediaRequests.userId, m.id));
    expect(row).toBeUndefined();
  });

  it('should cap pending requests per member', async () => {
    const app = h.appWith({ REQUEST_MAX_PENDING_PER_USER: '2' });
    const m = await h.member();
    for (let i = 0; i < 2; i++) {
      expect(
        (await app.call('post', '/api/v1/media-requests', { token: m.token, body: movie() }))
          .status,
      ).toBe(201);
    }
    const third = await errorOf(
      await app.call('post', '/api/v1/media-requests', { token: m.token, body: movie() }),
    );
    expect(third).toMatchObject({ status: 422, code: 'REQUEST_LIMIT_REACHED' });
    await h.settle(app);
  });

  it('should auto-approve a member’s first N requests of the day and dispatch them', async () => {
    const app = h.appWith({ REQUEST_AUTO_APPROVE_DAILY_LIMIT: '1' });
    const m = await h.member();
    const first = movie();
    const res = await app.call('post', '/api/v1/media-requests', { token: m.token, body: first });
    const reply = createRequestReplySchema.parse(await res.json());
    expect(reply.outcome).toBe('auto_approved');
    expect(reply.request).toMatchObject({ status: 'APPROVED', reviewSource: 'auto_quota' });
    const second = createRequestReplySchema.parse(
      await (
        await app.call('post', '/api/v1/media-requests', { token: m.token, body: movie() })
      ).json(),
    );
    expect(second.outcome).toBe('created');
    await h.settle(app);

    const [event] = eventsFor(h.bot, reply.request.id);
    expect(event).toMatchObject({
      event: 'auto_approved',
      quota: { usedToday: 1, dailyLimit: 1 },
    });
    const [row] = await h.t.context.db
      .select()
      .from(mediaRequests)
      .where(eq(mediaRequests.id, reply.request.id));
    expect(row).toMatchObject({ reviewedVia: 'system', automationError: null });
    expect(row!.dispatchedAt).toBeInstanceOf(Date);
    expect(h.mp.state.subscriptions.some((s) => s.tmdbid === first.tmdbId)).toBe(true);
  });

  it('should auto-approve admins with REQUEST_ADMIN_AUTO_APPROVE (quota null)', async () => {
    const app = h.appWith({ REQUEST_ADMIN_AUTO_APPROVE: 'true' });
    const admin = await h.admin();
    const reply = createRequestReplySchema.parse(
      await (
        await app.call('post', '/api/v1/media-requests', { token: admin.token, body: movie() })
      ).json(),
    );
    expect(reply.request).toMatchObject({ status: 'APPROVED', reviewSource: 'auto_admin' });
    await h.settle(app);
    expect(eventsFor(h.bot, reply.request.id)[0]).toMatchObject({
      event: 'auto_approved',
      quota: null,
    });
  });

  it('should list own requests only, filtered by status', async () => {
    const m = await h.member();
    const other = await h.member();
    await create(other.token, movie());
    const a = createRequestReplySchema.parse(await (await create(m.token, movie())).json());
    const b = createRequestReplySchema.parse(await (await create(m.token, movie())).json());
    const res = await h.t.call('get', '/api/v1/media-requests?pageSize=10', { token: m.token });
    const page = pageOf(mediaRequestSchema).parse(await res.json());
    expect(page.data.map((r) => r.id)).toEqual([b.request.id, a.request.id]);
    expect(page.total).toBe(2);
    const none = await h.t.call('get', '/api/v1/media-requests?status=APPROVED', {
      token: m.token,
    });
    expect(((await none.json()) as { total: number }).total).toBe(0);
  });

  describe('cancel', () => {
    it('should delete an own PENDING request and audit it', async () => {
      const m = await h.member();
      const created = createRequestReplySchema.parse(await (await create(m.token, movie())).json());
      const res = await h.t.call('delete', `/api/v1/media-requests/${created.request.id}`, {
        token: m.token,
      });
      expect(res.status).toBe(204);
      const rows = await h.t.context.db
        .select()
        .from(mediaRequests)
        .where(eq(mediaRequests.id, created.request.id));
      expect(rows).toHaveLength(0);
      const [audit] = await h.t.context.db
        .select()
        .from(auditLog)
        .where(
          and(eq(auditLog.action, 'request.cancel'), eq(auditLog.targetId, created.request.id)),
        );
      expect(audit).toBeDefined();
    });

    it('should answer 409 for a non-pending request and 404 for someone else’s', async () => {
      const m = await h.member();
      const admin = await h.admin();
      const created = createRequestReplySchema.parse(await (await create(m.token, movie())).json());
      const other = await h.member();
      expect(
        await errorOf(
          await h.t.call('delete', `/api/v1/media-requests/${created.request.id}`, {
            token: other.token,
          }),
        ),
      ).toMatchObject({ status: 404, code: 'REQUEST_NOT_FOUND' });
      await h.t.call('post', `/api/v1/admin/media-requests/${created.request.id}/reject`, {
        token: admin.token,
        body: { reason: 'no' },
      });
      expect(
        await errorOf(
          await h.t.call('delete', `/api/v1/media-requests/${created.request.id}`, {
            token: m.token,
          }),
        ),
      ).toEqual({
        status: 409,
        code: 'REQUEST_STATE_CHANGED',
        message: 'The request is already REJECTED',
        details: { status: 'REJECTED' },
      });
      expect(
        (
          await errorOf(
            await h.t.call('delete', '/api/v1/media-requests/not-a-uuid', { token: m.token }),
          )
        ).code,
      ).toBe('REQUEST_NOT_FOUND');
    });
  });

  describe('resubmit', () => {
    async function rejected(token: string) {
      const admin = await h.admin();
      const created = createRequestReplySchema.parse(await (await create(token, movie())).json());
      await h.t.call('post', `/api/v1/admin/media-requests/${created.request.id}/reject`, {
        token: admin.token,
        body: { reason: 'wrong year' },
      });
      return created.request;
    }

    it('should create a new PENDING row linked to the rejected one', async () => {
      const m = await h.member();
      const old = await rejected(m.token);
      const res = await h.t.call('post', `/api/v1/media-requests/${old.id}/resubmit`, {
        token: m.token,
        body: { note: 'it is the 2024 one' },
      });
      expect(res.status).toBe(201);
      const reply = createRequestReplySchema.parse(await res.json());
      expect(reply.outcome).toBe('created');
      expect(reply.request).toMatchObject({
        status: 'PENDING',
        retryFromId: old.id,
        note: 'it is the 2024 one',
        tmdbId: old.tmdbId,
        name: old.name,
      });
      expect(reply.request.id).not.toBe(old.id);
      await h.settle();
      expect(eventsFor(h.bot, reply.request.id).map((e) => e.event)).toEqual(['created']);
      const [audit] = await h.t.context.db
        .select()
        .from(auditLog)
        .where(
          and(eq(auditLog.action, 'request.resubmit'), eq(auditLog.targetId, reply.request.id)),
        );
      expect(audit!.details).toMatchObject({ retryFromId: old.id });

      // Only the newest row of a chain may be resubmitted.
      const twice = await h.t.call('post', `/api/v1/media-requests/${old.id}/resubmit`, {
        token: m.token,
        body: { note: 'again' },
      });
      expect(await errorOf(twice)).toEqual({
        status: 409,
        code: 'REQUEST_STATE_CHANGED',
        message: 'This request was already resubmitted',
        details: { status: 'REJECTED' },
      });
    });

    it('should answer 404 REQUEST_NOT_FOUND for someone else’s request', async () => {
      const owner = await h.member();
      const old = await rejected(owner.token);
      const intruder = await h.member();
      const res = await h.t.call('post', `/api/v1/media-requests/${old.id}/resubmit`, {
        token: intruder.token,
        body: { note: 'mine now' },
      });
      expect(await errorOf(res)).toEqual({
        status: 404,
        code: 'REQUEST_NOT_FOUND',
        message: 'No such request',
      });
      const rows = await h.t.context.db
        .select()
        .from(mediaRequests)
        .where(eq(mediaRequests.retryFromId, old.id));
      expect(rows).toHaveLength(0);
    });

    it('should refuse a request that is not REJECTED, and one already resubmitted', async () => {
      const m = await h.member();
      const pending = createRequestReplySchema.parse(await (await create(m.token, movie())).json());
      const res = await h.t.call('post', `/api/v1/media-requests/${pending.request.id}/resubmit`, {
        token: m.token,
        body: { note: 'x' },
      });
      expect(await errorOf(res)).toMatchObject({
        status: 409,
        code: 'REQUEST_STATE_CHANGED',
        details: { status: 'PENDING' },
      });

      const old = await rejected(m.token);
      const first = await h.t.call('post', `/api/v1/media-requests/${old.id}/resubmit`, {
        token: m.token,
        body: { note: 'first' },
      });
      expect(first.status).toBe(201);
      const second = await h.t.call('post', `/api/v1/media-requests/${old.id}/resubmit`, {
        token: m.token,
        body: { note: 'second' },
      });
      expect(await errorOf(second)).toMatchObject({ status: 409, code: 'REQUEST_STATE_CHANGED' });
    });

    it('should need a note', async () => {
      const m = await h.member();
      const old = await rejected(m.token);
      const res = await h.t.call('post', `/api/v1/media-requests/${old.id}/resubmit`, {
        token: m.token,
        body: { note: '  ' },
      });
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    });
  });
});
