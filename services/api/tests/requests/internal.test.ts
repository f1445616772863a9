import {
  createdPendingActionSchema,
  createRequestReplySchema,
  internalReviewReplySchema,
  pendingActionSchema,
} from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  auditLog,
  botPendingActions,
  mediaRequests,
  requestAdminMessages,
  users,
} from '../../src/db/schema/index.js';
import type { TestApp } from '../support/app.js';
import { ENGINE } from '../support/database.js';
import { errorOf, eventsFor, startHarness, type Harness } from './harness.js';

const APPROVER = 5_000_001;
const STRANGER = 5_000_999;

let h: Harness;
let bot: TestApp;
let secret: Record<string, string>;
beforeAll(async () => {
  h = await startHarness({ settings: { MESSENGER_APPROVER_IDS: String(APPROVER) } });
  bot = h.t;
  secret = { 'x-internal-secret': h.t.config.INTERNAL_API_SECRET };
});
afterAll(() => h.close());

let nextMessenger = 6_000_000;
let nextTmdb = 8_000_000;

/** A member bound to a fresh Telegram id. */
async function boundMember() {
  const m = await h.member();
  const messengerId = ++nextMessenger;
  await h.t.context.db.update(users).set({ messengerId }).where(eq(users.id, m.id));
  return { ...m, messengerId };
}

const call = (app: TestApp, method: string, path: string, body?: unknown) =>
  app.call(method, `/api/v1/internal${path}`, { headers: secret, body });

async function createViaBot(messengerId: number, extra: Record<string, unknown> = {}) {
  const tmdbId = ++nextTmdb;
  const res = await call(bot, 'post', '/media-requests', {
    messengerId,
    type: 'MOVIE',
    tmdbId,
    season: 0,
    name: `Bot title ${tmdbId}`,
    year: 2021,
    posterPath: null,
    confirmExisting: false,
    ...extra,
  });
  expect(res.status).toBe(201);
  return createRequestReplySchema.parse(await res.json()).request;
}

describe(`internal media-request routes (${ENGINE})`, () => {
  it('should refuse a missing or wrong secret with 401', async () => {
    const variants: Record<string, string>[] = [{}, { 'x-internal-secret': 'wrong' }];
    for (const headers of variants) {
      const res = await h.t.call('post', '/api/v1/internal/media-requests', {
        headers,
        body: { messengerId: 1 },
      });
      expect(await errorOf(res)).toEqual({
        status: 401,
        code: 'INTERNAL_AUTH_FAILED',
        message: 'Missing or wrong X-Internal-Secret',
      });
    }
    const pending = await h.t.call('delete', `/api/v1/internal/pending-actions/${uuidv7()}`, {
      headers: { 'x-internal-secret': `${h.t.config.INTERNAL_API_SECRET}x` },
    });
    expect((await errorOf(pending)).status).toBe(401);
  });

  it('should create for the bound member, audit as the bot and store the locale', async () => {
    const m = await boundMember();
    const request = await createViaBot(m.messengerId, { languageCode: 'zh-hans' });
    expect(request.status).toBe('PENDING');
    const [row] = await h.t.context.db
      .select()
      .from(mediaRequests)
      .where(eq(mediaRequests.id, request.id));
    expect(row!.userId).toBe(m.id);
    const [user] = await h.t.context.db.select().from(users).where(eq(users.id, m.id));
    expect(user!.locale).toBe('zh-CN');
    const [audit] = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'request.create'), eq(auditLog.targetId, request.id)));
    expect(audit).toMatchObject({ actorType: 'bot', actorLabel: `messenger:${m.messengerId}` });
    await h.settle();
    expect(eventsFor(h.bot, request.id)[0]).toMatchObject({
      event: 'created',
      subscription: { requester: { messengerId: m.messengerId, locale: 'zh-CN' } },
    });
  });

  it('should answer 404 MESSENGER_NOT_BOUND for an unknown Telegram id', async () => {
    const res = await call(bot, 'post', '/media-requests', {
      messengerId: 123,
      type: 'MOVIE',
      tmdbId: 77,
      season: 0,
      name: 'x',
    });
    expect(await errorOf(res)).toEqual({
      status: 404,
      code: 'MESSENGER_NOT_BOUND',
      message: 'This Telegram account is not bound',
    });
  });

  describe('approve and reject from the bot', () => {
    it('should refuse someone who is not an approver', async () => {
      const m = await boundMember();
      const request = await createViaBot(m.messengerId);
      for (const action of ['approve', 'reject']) {
        const res = await call(bot, 'post', `/media-requests/${request.id}/${action}`, {
          approverMessengerId: STRANGER,
          ...(action === 'reject' ? { reason: 'no' } : {}),
        });
        expect(await errorOf(res)).toEqual({
          status: 403,
          code: 'NOT_AN_APPROVER',
          message: 'This Telegram account may not review requests',
        });
      }
    });

    it('should approve once (changed:true), then answer changed:false', async () => {
      const reviewer = await boundMember();
      const app = h.appWith({ MESSENGER_APPROVER_IDS: String(reviewer.messengerId) });
      const m = await boundMember();
      const request = await createViaBot(m.messengerId);
      const path = `/media-requests/${request.id}/approve`;
      const first = internalReviewReplySchema.parse(
        await (await call(app, 'post', path, { approverMessengerId: reviewer.messengerId })).json(),
      );
      expect(first).toMatchObject({
        changed: true,
        request: { status: 'APPROVED', reviewer: { username: reviewer.username } },
      });
      const second = internalReviewReplySchema.parse(
        await (await call(app, 'post', path, { approverMessengerId: reviewer.messengerId })).json(),
      );
      expect(second).toMatchObject({ changed: false, request: { status: 'APPROVED' } });
      const [row] = await h.t.context.db
        .select()
        .from(mediaRequests)
        .where(eq(mediaRequests.id, request.id));
      expect(row).toMatchObject({
        reviewedVia: 'messenger',
        reviewedBy: reviewer.id,
        reviewerMessengerId: reviewer.messengerId,
      });
      await h.settle(app);
      expect(eventsFor(h.bot, request.id).find((e) => e.event === 'approved')).toMatchObject({
        reviewer: { source: 'messenger', name: reviewer.username },
      });
      // Rejecting an approved request is a conflict for the bot too.
      const late = await call(app, 'post', `/media-requests/${request.id}/reject`, {
        approverMessengerId: reviewer.messengerId,
        reason: 'too late',
      });
      expect(await errorOf(late)).toMatchObject({
        status: 409,
        code: 'REQUEST_STATE_CHANGED',
        details: { status: 'APPROVED' },
      });
    });

    it('should reject, consume the reason dialog, keep the first reason and refuse a later approve', async () => {
      const m = await boundMember();
      const request = await createViaBot(m.messengerId);
      const state = createdPendingActionSchema.parse(
        await (
          await call(bot, 'post', '/pending-actions', {
            kind: 'reject_reason',
            chatId: APPROVER,
            messengerUserId: APPROVER,
            payload: { subscriptionId: request.id },
            ttlSeconds: 300,
          })
        ).json(),
      );
      const path = `/media-requests/${request.id}/reject`;
      const first = internalReviewReplySchema.parse(
        await (
          await call(bot, 'post', path, {
            approverMessengerId: APPROVER,
            reason: 'first reason',
            pendingActionId: state.id,
          })
        ).json(),
      );
      expect(first).toMatchObject({
        changed: true,
        request: {
          status: 'REJECTED',
          rejectReason: 'first reason',
          reviewer: { username: `messenger:${APPROVER}` },
        },
      });
      expect(
        await h.t.context.db
          .select()
          .from(botPendingActions)
          .where(eq(botPendingActions.id, state.id)),
      ).toHaveLength(0);
      const again = internalReviewReplySchema.parse(
        await (
          await call(bot, 'post', path, { approverMessengerId: APPROVER, reason: 'second' })
        ).json(),
      );
      expect(again).toMatchObject({ changed: false, request: { rejectReason: 'first reason' } });
      const approve = await call(bot, 'post', `/media-requests/${request.id}/approve`, {
        approverMessengerId: APPROVER,
      });
      expect(await errorOf(approve)).toMatchObject({
        status: 409,
        code: 'REQUEST_STATE_CHANGED',
        details: { status: 'REJECTED' },
      });
      await h.settle();
    });

    it('should follow the admin-chat fallback when no approvers are listed', async () => {
      const person = h.appWith({ MESSENGER_APPROVER_IDS: '', MESSENGER_ADMIN_CHAT_ID: '4242' });
      const group = h.appWith({ MESSENGER_APPROVER_IDS: '', MESSENGER_ADMIN_CHAT_ID: '-100777' });
      const nobody = h.appWith({ MESSENGER_APPROVER_IDS: '', MESSENGER_ADMIN_CHAT_ID: '' });
      const m = await boundMember();
      const a = await createViaBot(m.messengerId);
      const approveWith = (app: TestApp, id: string, who: number) =>
        call(app, 'post', `/media-requests/${id}/approve`, { approverMessengerId: who });
      expect((await errorOf(await approveWith(person, a.id, STRANGER))).code).toBe(
        'NOT_AN_APPROVER',
      );
      expect((await errorOf(await approveWith(nobody, a.id, 4242))).code).toBe('NOT_AN_APPROVER');
      expect((await approveWith(person, a.id, 4242)).status).toBe(200);
      const b = await createViaBot(m.messengerId);
      expect((await approveWith(group, b.id, STRANGER)).status).toBe(200);
      await h.settle(person);
      await h.settle(group);
    });

    it('should answer 404 for unknown requests', async () => {
      const res = await call(bot, 'post', `/media-requests/${uuidv7()}/approve`, {
        approverMessengerId: APPROVER,
      });
      expect((await errorOf(res)).code).toBe('REQUEST_NOT_FOUND');
    });
  });

  describe('admin copies', () => {
    it('should record copies, hand them to later events, and mark those the bot found gone', async () => {
      const m = await boundMember();
      const request = await createViaBot(m.messengerId, { posterPath: '/p.jpg' });
      const path = `/media-requests/${request.id}/admin-messages`;
      const messages = [
        {
          approverMessengerId: APPROVER,
          chatId: APPROVER,
          messageId: 11,
          hasPhoto: true,
          status: 'sent',
        },
        { chatId: -100555, messageId: 12, hasPhoto: false, status: 'sent' },
        {
          approverMessengerId: 77,
          chatId: 77,
          hasPhoto: false,
          status: 'send_failed',
          reason: 'blocked',
        },
      ];
      expect((await call(bot, 'post', path, { messages })).status).toBe(204);
      // Reported again (a retry by the bot): upserted, not duplicated.
      expect((await call(bot, 'post', path, { messages })).status).toBe(204);
      const rows = await h.t.context.db
        .select()
        .from(requestAdminMessages)
        .where(eq(requestAdminMessages.requestId, request.id));
      expect(rows).toHaveLength(3);
      expect(rows.find((r) => r.chatId === 77)).toMatchObject({
        deliveryStatus: 'send_failed',
        messageId: null,
        failureReason: 'blocked',
      });

      h.bot.reply = (c) =>
        c.body.event === 'approved'
          ? {
              ok: true,
              deliveries: [
                { to: 'adminCopy', chatId: APPROVER, messageId: 11, status: 'edited' },
                { to: 'adminCopy', chatId: -100555, messageId: 12, status: 'gone' },
              ],
            }
          : { ok: true, deliveries: [] };
      try {
        await call(bot, 'post', `/media-requests/${request.id}/approve`, {
          approverMessengerId: APPROVER,
        });
        await h.settle();
      } finally {
        h.bot.reply = () => ({ ok: true, deliveries: [] });
      }
      expect(eventsFor(h.bot, request.id).find((e) => e.event === 'approved')).toMatchObject({
        adminMessages: [
          { chatId: APPROVER, messageId: 11, hasPhoto: true },
          { chatId: -100555, messageId: 12, hasPhoto: false },
        ],
      });
      const after = await h.t.context.db
        .select()
        .from(requestAdminMessages)
        .where(eq(requestAdminMessages.requestId, request.id));
      expect(after.find((r) => r.messageId === 12)!.deliveryStatus).toBe('deleted');
      expect(after.find((r) => r.messageId === 11)!.deliveryStatus).toBe('sent');
    });

    it('should answer 404 for an unknown request and 400 for more than 50 copies', async () => {
      const unknown = await call(bot, 'post', `/media-requests/${uuidv7()}/admin-messages`, {
        messages: [],
      });
      expect((await errorOf(unknown)).code).toBe('REQUEST_NOT_FOUND');
      const many = Array.from({ length: 51 }, (_, i) => ({
        chatId: i + 1,
        messageId: i + 1,
        hasPhoto: false,
        status: 'sent',
      }));
      const res = await call(bot, 'post', `/media-requests/${uuidv7()}/admin-messages`, {
        messages: many,
      });
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    });
  });

  describe('pending actions', () => {
    const key = { kind: 'search', chatId: 900, messengerUserId: 901 };
    const create = async (payload: Record<string, unknown>, ttlSeconds = 600) => {
      const res = await call(bot, 'post', '/pending-actions', { ...key, payload, ttlSeconds });
      expect(res.status).toBe(201);
      return createdPendingActionSchema.parse(await res.json());
    };

    it('should store, read, update and claim an action exactly once', async () => {
      const created = await create({ step: 1, results: [1, 2, 3] });
      const byId = pendingActionSchema.parse(
        await (await call(bot, 'get', `/pending-actions/${created.id}`)).json(),
      );
      expect(byId).toMatchObject({ ...key, id: created.id, payload: { step: 1 } });
      const byKey = pendingActionSchema.parse(
        await (
          await call(bot, 'get', `/pending-actions?kind=search&chatId=900&messengerUserId=901`)
        ).json(),
      );
      expect(byKey.id).toBe(created.id);

      const patched = pendingActionSchema.parse(
        await (
          await call(bot, 'patch', `/pending-actions/${created.id}`, {
            payload: { step: 2 },
            ttlSeconds: 60,
          })
        ).json(),
      );
      expect(patched.payload).toEqual({ step: 2 });
      expect(Date.parse(patched.expiresAt)).toBeLessThan(Date.parse(created.expiresAt));

      const [first, second] = await Promise.all([
        call(bot, 'delete', `/pending-actions/${created.id}`),
        call(bot, 'delete', `/pending-actions/${created.id}`),
      ]);
      expect([first.status, second.status].sort()).toEqual([204, 404]);
      const gone = await call(bot, 'get', `/pending-actions/${created.id}`);
      expect(await errorOf(gone)).toEqual({
        status: 404,
        code: 'PENDING_ACTION_NOT_FOUND',
        message: 'No such pending action, or it has expired',
      });
    });

    it('should replace the live action of the same key with a new id', async () => {
      const old = await create({ n: 1 });
      const fresh = await create({ n: 2 });
      expect(fresh.id).not.toBe(old.id);
      expect((await call(bot, 'get', `/pending-actions/${old.id}`)).status).toBe(404);
      expect((await call(bot, 'delete', `/pending-actions/${old.id}`)).status).toBe(404);
      const live = pendingActionSchema.parse(
        await (
          await call(bot, 'get', `/pending-actions?kind=search&chatId=900&messengerUserId=901`)
        ).json(),
      );
      expect(live).toMatchObject({ id: fresh.id, payload: { n: 2 } });
    });

    it('should treat expired actions as gone and remove them', async () => {
      const created = await create({ n: 3 }, 10);
      await h.t.context.db
        .update(botPendingActions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(botPendingActions.id, created.id));
      expect((await call(bot, 'get', `/pending-actions/${created.id}`)).status).toBe(404);
      expect(
        await h.t.context.db
          .select()
          .from(botPendingActions)
          .where(eq(botPendingActions.id, created.id)),
      ).toHaveLength(0);
      const patch = await call(bot, 'patch', `/pending-actions/${created.id}`, { payload: {} });
      expect((await errorOf(patch)).code).toBe('PENDING_ACTION_NOT_FOUND');
    });

    it('should validate kind, TTL and payload size', async () => {
      const base = { ...key, payload: {}, ttlSeconds: 60 };
      for (const body of [
        { ...base, kind: 'Bad-Kind' },
        { ...base, ttlSeconds: 5 },
        { ...base, ttlSeconds: 3601 },
        { ...base, payload: { big: 'x'.repeat(17 * 1024) } },
        { ...base, payload: 'text' },
      ]) {
        const res = await call(bot, 'post', '/pending-actions', body);
        expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
      }
      expect((await call(bot, 'get', '/pending-actions/not-a-uuid')).status).toBe(404);
    });
  });
});
