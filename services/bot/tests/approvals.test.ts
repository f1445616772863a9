/**
 * Approval cards across two webhook replicas sharing the stub API: the fan-out of `created`,
 * approve and reject-with-reason from two admins on different replicas, the final-state edits of
 * every copy, and the requester's DM in their language.
 */
import {
  callbackQuery,
  privateChat,
  replyMessage,
  startFakeTelegram,
  textMessage,
  tgUser,
  type FakeTelegram,
  type TgMessage,
} from '@usher/testkit';
import {
  INTERNAL_SECRET,
  lastMessage,
  notifyHeaders,
  pushTo,
  startReplica,
  type Replica,
} from './support/harness.js';
import { event, subscription } from './support/payloads.js';
import { StubApi } from './support/stub-api.js';

let fake: FakeTelegram;
let api: StubApi;
let a: Replica;
let b: Replica;

const admin1 = tgUser({ id: 7001, first_name: 'Ann', username: 'ann' });
const admin2 = tgUser({ id: 7002, first_name: 'Ben', username: 'ben' });
const member = tgUser({ id: 7100, first_name: 'Mia', language_code: 'zh-hans' });

beforeAll(async () => {
  fake = await startFakeTelegram();
  api = await new StubApi(INTERNAL_SECRET).start();
  api.settings = {
    ...api.settings,
    approverIds: [String(admin1.id), String(admin2.id)],
    timezone: 'UTC',
  };
  api.addAccount(admin1.id, { username: 'ann' });
  api.addAccount(admin2.id, { username: 'ben' });
  for (const user of [admin1, admin2, member]) fake.seedChat(privateChat(user));
  a = await startReplica({ telegram: fake, apiUrl: api.url });
  b = await startReplica({ telegram: fake, apiUrl: api.url });
});

afterAll(async () => {
  await a.close();
  await b.close();
  await api.close();
  await fake.close();
});

beforeEach(() => {
  fake.resetCalls();
  api.overrides.splice(0);
});

afterEach(() => expect(api.violations).toEqual([]));

async function notify(replica: Replica, body: unknown) {
  const res = await replica.app.request('/notify/subscription', {
    method: 'POST',
    headers: notifyHeaders(),
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Sends `created` for a new stub request and returns the copies the admins got. */
async function announce(patch: Parameters<typeof subscription>[0] = {}) {
  const request = api.addRequest();
  const sub = subscription({
    id: request.id,
    requester: { userId: null, username: 'mia', messengerId: member.id, locale: 'zh-CN' },
    ...patch,
  });
  const reply = await notify(a, event('created', sub));
  expect(reply.status).toBe(200);
  return {
    request,
    sub,
    copy1: lastMessage(fake, admin1.id),
    copy2: lastMessage(fake, admin2.id),
    reply,
  };
}

const buttonData = (m: TgMessage, i: number) =>
  m.reply_markup!.inline_keyboard[0]![i]!.callback_data!;

describe('created', () => {
  it('should send a photo card with buttons to every approver and record the copies', async () => {
    const { request, copy1, copy2, reply } = await announce();
    expect(reply.body.deliveries).toEqual([
      {
        to: 'approver',
        chatId: admin1.id,
        status: 'sent',
        hasPhoto: true,
        messageId: copy1.message_id,
      },
      {
        to: 'approver',
        chatId: admin2.id,
        status: 'sent',
        hasPhoto: true,
        messageId: copy2.message_id,
      },
    ]);
    expect(copy1.caption).toBe(
      [
        '🎬 New request',
        '📌 Dune (2021)',
        '🎭 🎬 Movie',
        '👤 mia',
        '🔗 TMDB #438631',
        '💬 Please the 4K one',
      ].join('\n'),
    );
    expect(fake.callsTo('sendPhoto')[0]!.params.photo).toBe(
      'https://image.tmdb.org/t/p/w500/dune.jpg',
    );
    expect(copy1.reply_markup!.inline_keyboard).toEqual([
      [
        { text: '✅ Approve', callback_data: `ap:${request.id}` },
        { text: '❌ Reject', callback_data: `rj:${request.id}` },
      ],
    ]);
    const recorded = api.callsTo(
      'POST',
      `/api/v1/internal/media-requests/${request.id}/admin-messages`,
    );
    expect(recorded.at(-1)!.body).toEqual({
      messages: [
        {
          approverMessengerId: admin1.id,
          chatId: admin1.id,
          messageId: copy1.message_id,
          hasPhoto: true,
          status: 'sent',
        },
        {
          approverMessengerId: admin2.id,
          chatId: admin2.id,
          messageId: copy2.message_id,
          hasPhoto: true,
          status: 'sent',
        },
      ],
    });
  });

  it('should report a blocked approver and record the failed copy', async () => {
    const admin3 = tgUser({ id: 7003 });
    fake.seedChat(privateChat(admin3));
    fake.block(admin3.id);
    const saved = api.settings;
    api.settings = { ...saved, approverIds: [...saved.approverIds, String(admin3.id)] };
    try {
      const { request, reply } = await announce();
      const deliveries = reply.body.deliveries as { chatId: number; status: string }[];
      expect(deliveries.map((d) => d.status)).toEqual(['sent', 'sent', 'blocked']);
      const recorded = api
        .callsTo('POST', `/api/v1/internal/media-requests/${request.id}/admin-messages`)
        .at(-1)!;
      expect((recorded.body as { messages: unknown[] }).messages[2]).toEqual({
        approverMessengerId: admin3.id,
        chatId: admin3.id,
        hasPhoto: false,
        status: 'send_failed',
        reason: 'Forbidden: bot was blocked by the user',
      });
    } finally {
      api.settings = saved;
    }
  });

  it('should fall back to a text card when Telegram refuses the photo', async () => {
    fake.failNext('sendPhoto', {
      error_code: 400,
      description: 'Bad Request: wrong file identifier/HTTP URL specified',
    });
    const { copy1, reply } = await announce();
    expect(copy1.text).toContain('🎬 New request');
    expect((reply.body.deliveries as { hasPhoto: boolean }[])[0]!.hasPhoto).toBe(false);
  });

  it('should answer 502 when every delivery failed', async () => {
    fake.flood(1, ['sendPhoto', 'sendMessage']);
    try {
      const request = api.addRequest();
      const reply = await notify(a, event('created', subscription({ id: request.id })));
      expect(reply.status).toBe(502);
      expect(reply.body).toMatchObject({ error: { code: 'DELIVERY_FAILED' } });
    } finally {
      fake.stopFlood();
    }
  });
});

describe('approve', () => {
  it('should approve from a button on replica B, then the approved event edits every copy', async () => {
    const { request, sub, copy1, copy2 } = await announce();
    await pushTo(
      fake,
      b,
      callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 0) }),
    );
    expect(fake.callsTo('answerCallbackQuery').at(-1)!.params.text).toBe('Approved');
    expect(api.requests.get(request.id)!.status).toBe('APPROVED');
    expect(
      api.callsTo('POST', `/api/v1/internal/media-requests/${request.id}/approve`).at(-1)!.body,
    ).toEqual({
      approverMessengerId: admin1.id,
    });
    let edited = lastMessage(fake, admin1.id);
    expect(edited.caption).toContain('✅ Approved by ann · ');
    expect(edited.reply_markup).toBeUndefined();

    const reply = await notify(
      a,
      event('approved', sub, {
        reviewedAt: '2026-11-22T09:31:00.000Z',
        reviewer: { source: 'messenger', name: 'ann' },
        adminMessages: [
          { chatId: admin1.id, messageId: copy1.message_id, hasPhoto: true },
          { chatId: admin2.id, messageId: copy2.message_id, hasPhoto: true },
        ],
      }),
    );
    expect(reply.status).toBe(200);
    const deliveries = reply.body.deliveries as { to: string; status: string }[];
    expect(deliveries.map((d) => [d.to, d.status])).toEqual([
      ['requester', 'sent'],
      ['adminCopy', 'edited'],
      ['adminCopy', 'edited'],
    ]);
    edited = lastMessage(fake, admin2.id);
    expect(edited.caption).toContain('────────\n✅ Approved by ann · 2026-11-22 09:31');
    expect(edited.reply_markup).toBeUndefined();
    expect(lastMessage(fake, member.id).text).toBe(
      '✅ 求片已通过\n📌 Dune\n下载完成后将出现在媒体库。',
    );
  });

  it('should report unchanged and gone copies in the sync edit', async () => {
    const { sub, copy1, copy2 } = await announce();
    const body = event('approved', sub, {
      reviewedAt: '2026-11-22T09:31:00.000Z',
      reviewer: { source: 'web', name: 'root' },
      adminMessages: [
        { chatId: admin1.id, messageId: copy1.message_id, hasPhoto: true },
        { chatId: admin2.id, messageId: copy2.message_id, hasPhoto: true },
      ],
    });
    await notify(a, body);
    fake.state.messages.get(admin2.id)!.get(copy2.message_id)!.deleted = true;
    const reply = await notify(b, body);
    expect((reply.body.deliveries as { status: string }[]).map((d) => d.status)).toEqual([
      'sent',
      'unchanged',
      'gone',
    ]);
  });

  it('should alert "already handled" on a second approve and edit that copy', async () => {
    const { copy1, copy2 } = await announce();
    await pushTo(
      fake,
      a,
      callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 0) }),
    );
    await pushTo(
      fake,
      b,
      callbackQuery({ from: admin2, message: copy2, data: buttonData(copy2, 0) }),
    );
    const answer = fake.callsTo('answerCallbackQuery').at(-1)!;
    expect(answer.params).toMatchObject({ text: 'Already handled: approved', show_alert: true });
    expect(lastMessage(fake, admin2.id).caption).toContain('✅ Approved by ann');
  });

  it('should refuse a presser who is not an approver', async () => {
    const { request, copy1 } = await announce();
    const intruder = tgUser({ id: 7999 });
    await pushTo(
      fake,
      a,
      callbackQuery({ from: intruder, message: copy1, data: buttonData(copy1, 0) }),
    );
    expect(fake.callsTo('answerCallbackQuery').at(-1)!.params).toMatchObject({
      text: '⛔ Only configured approvers can do this.',
      show_alert: true,
    });
    expect(api.requests.get(request.id)!.status).toBe('PENDING');
    expect(api.callsTo('POST', `/api/v1/internal/media-requests/${request.id}/approve`)).toEqual(
      [],
    );
  });

  it('should alert when the request was rejected meanwhile (409)', async () => {
    const { request, copy1 } = await announce();
    api.requests.get(request.id)!.status = 'REJECTED';
    await pushTo(
      fake,
      a,
      callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 0) }),
    );
    expect(fake.callsTo('answerCallbackQuery').at(-1)!.params).toMatchObject({
      text: 'Already handled: rejected',
      show_alert: true,
    });
  });

  it('should still answer the callback when the API times out', async () => {
    const { copy1 } = await announce();
    api.down = true;
    try {
      await pushTo(
        fake,
        a,
        callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 0) }),
      );
    } finally {
      api.down = false;
    }
    const answer = fake.callsTo('answerCallbackQuery').at(-1)!;
    expect(answer.status).toBe(200);
    expect(answer.params.text).toBe(
      "⚠️ Usher can't be reached right now. Please try again in a few minutes.",
    );
  });
});

describe('reject with a reason', () => {
  it('should take the reason on replica B after the button was pressed on replica A', async () => {
    const { request, sub, copy1, copy2 } = await announce();
    await pushTo(
      fake,
      a,
      callbackQuery({ from: admin2, message: copy2, data: buttonData(copy2, 1) }),
    );
    const prompt = lastMessage(fake, admin2.id);
    expect(prompt.text).toBe(
      '✍️ Reply with the reason for rejecting Dune (5 minutes). /cancel to stop.',
    );
    expect(fake.callsTo('sendMessage').at(-1)!.params.reply_markup).toEqual({
      force_reply: true,
      selective: true,
    });
    const state = api.livePending('reject_reason').find((p) => p.messengerUserId === admin2.id)!;
    expect(state.payload).toEqual({
      subscriptionId: request.id,
      title: 'Dune',
      messageId: copy2.message_id,
      hasPhoto: true,
    });

    await pushTo(
      fake,
      b,
      replyMessage({ from: admin2, to: prompt, text: '  Not available in 4K <yet>  ' }),
    );
    expect(lastMessage(fake, admin2.id).text).toBe('❌ Rejected.');
    expect(
      api.callsTo('POST', `/api/v1/internal/media-requests/${request.id}/reject`).at(-1)!.body,
    ).toEqual({
      approverMessengerId: admin2.id,
      reason: 'Not available in 4K <yet>',
      pendingActionId: state.id,
    });
    expect(api.pending.has(state.id)).toBe(false);

    const reply = await notify(
      b,
      event('rejected', sub, {
        reviewedAt: '2026-11-22T09:40:00.000Z',
        reviewer: { source: 'messenger', name: 'ben' },
        reason: 'Not available in 4K <yet>',
        adminMessages: [
          { chatId: admin1.id, messageId: copy1.message_id, hasPhoto: true },
          { chatId: admin2.id, messageId: copy2.message_id, hasPhoto: true },
        ],
      }),
    );
    expect(reply.status).toBe(200);
    for (const admin of [admin1, admin2]) {
      const copy = fake.state.findMessage(
        admin.id,
        admin === admin1 ? copy1.message_id : copy2.message_id,
      )!.message;
      expect(copy.caption).toContain(
        '❌ Rejected by ben · 2026-11-22 09:40\n📝 Not available in 4K <yet>',
      );
      expect(copy.reply_markup).toBeUndefined();
    }
    expect(lastMessage(fake, member.id).text).toBe(
      '❌ 求片未通过\n📌 Dune\n📝 原因：Not available in 4K <yet>\n可在网页控制台补充说明后重新提交。',
    );
  });

  it('should ask again for an empty reason and keep the dialogue', async () => {
    const { request, copy1 } = await announce();
    await pushTo(
      fake,
      a,
      callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 1) }),
    );
    await pushTo(fake, b, textMessage({ from: admin1, text: '   ' }));
    expect(lastMessage(fake, admin1.id).text).toBe('Please send a reason.');
    expect(api.requests.get(request.id)!.status).toBe('PENDING');
    await pushTo(fake, a, textMessage({ from: admin1, text: 'duplicate' }));
    expect(lastMessage(fake, admin1.id).text).toBe('❌ Rejected.');
  });

  it('should say it was already approved when the reason arrives too late', async () => {
    const { request, copy1 } = await announce();
    await pushTo(
      fake,
      a,
      callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 1) }),
    );
    api.requests.get(request.id)!.status = 'APPROVED';
    await pushTo(fake, b, textMessage({ from: admin1, text: 'too late' }));
    expect(lastMessage(fake, admin1.id).text).toBe('ℹ️ It was already approved; nothing changed.');
  });

  it('should keep the first reason when two admins reject', async () => {
    const { request, copy1, copy2 } = await announce();
    await pushTo(
      fake,
      a,
      callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 1) }),
    );
    await pushTo(
      fake,
      b,
      callbackQuery({ from: admin2, message: copy2, data: buttonData(copy2, 1) }),
    );
    await pushTo(fake, b, textMessage({ from: admin1, text: 'first reason' }));
    await pushTo(fake, a, textMessage({ from: admin2, text: 'second reason' }));
    expect(lastMessage(fake, admin1.id).text).toBe('❌ Rejected.');
    expect(lastMessage(fake, admin2.id).text).toBe(
      'ℹ️ It was already rejected; the first reason stays.',
    );
    expect(api.requests.get(request.id)!.rejectReason).toBe('first reason');
  });

  it('should cut a reason over 500 characters', async () => {
    const { request, copy1 } = await announce();
    await pushTo(
      fake,
      a,
      callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 1) }),
    );
    await pushTo(fake, b, textMessage({ from: admin1, text: 'x'.repeat(700) }));
    const reason = (
      api.callsTo('POST', `/api/v1/internal/media-requests/${request.id}/reject`).at(-1)!.body as {
        reason: string;
      }
    ).reason;
    expect(reason).toHaveLength(500);
    expect(reason.endsWith('…')).toBe(true);
  });

  it('should stop the dialogue with /cancel', async () => {
    const { request, copy1 } = await announce();
    await pushTo(
      fake,
      a,
      callbackQuery({ from: admin1, message: copy1, data: buttonData(copy1, 1) }),
    );
    await pushTo(fake, b, {
      message: {
        ...textMessage({ from: admin1, text: '/cancel' }).message!,
        entities: [{ type: 'bot_command', offset: 0, length: 7 }],
      },
    });
    expect(lastMessage(fake, admin1.id).text).toBe('Cancelled.');
    await pushTo(fake, a, textMessage({ from: admin1, text: 'reason after cancel' }));
    expect(api.requests.get(request.id)!.status).toBe('PENDING');
    expect(lastMessage(fake, admin1.id).text).toBe('Send /help to see what I can do.');
  });
});

describe('auto_approved and ingested', () => {
  it('should send a read-only card and tell the requester', async () => {
    const request = api.addRequest();
    const sub = subscription({
      id: request.id,
      posterPath: null,
      requester: { userId: null, username: 'mia', messengerId: member.id, locale: null },
    });
    const reply = await notify(
      a,
      event('auto_approved', sub, {
        quota: { usedToday: 2, dailyLimit: 3 },
        reviewedAt: '2026-11-22T09:30:00.000Z',
      }),
    );
    expect(reply.status).toBe(200);
    const card = lastMessage(fake, admin1.id);
    expect(card.text).toContain('⚡ Auto-approved request');
    expect(card.text).toContain('🧩 Quota: 2/3 today\n🕒 2026-11-22 09:30');
    expect(card.reply_markup).toBeUndefined();
    expect(lastMessage(fake, member.id).text).toBe(
      '✅ Request approved automatically\n📌 Dune\nIt appears on the server once downloaded.',
    );
  });

  it('should edit copies to available and skip an unbound requester', async () => {
    const { sub, copy1 } = await announce({
      requester: { userId: null, username: 'x', messengerId: null, locale: null },
    });
    const reply = await notify(
      a,
      event('ingested', sub, {
        ingestedAt: '2026-11-23T10:00:00.000Z',
        progress: null,
        adminMessages: [{ chatId: admin1.id, messageId: copy1.message_id, hasPhoto: true }],
      }),
    );
    expect(reply.body.deliveries).toEqual([
      { to: 'requester', chatId: null, status: 'skipped', reason: 'requester_not_bound' },
      {
        to: 'adminCopy',
        chatId: admin1.id,
        status: 'edited',
        messageId: copy1.message_id,
        hasPhoto: true,
      },
    ]);
    expect(fake.state.findMessage(admin1.id, copy1.message_id)!.message.caption).toContain(
      '📦 Available · 2026-11-23 10:00',
    );
  });
});

describe('admin group fallback (no approver list)', () => {
  const GROUP = -1001000000077;
  const owner = tgUser({ id: 7301, first_name: 'Olga' });
  const plainMember = tgUser({ id: 7302, first_name: 'Pat' });
  let saved: typeof api.settings;

  beforeAll(() => {
    saved = api.settings;
    api.settings = {
      ...saved,
      approverIds: [],
      adminChatId: String(GROUP),
      approverFallback: 'admin_group',
    };
    fake.seedChat({ id: GROUP, type: 'supergroup', title: 'Admins' });
    fake.setMember(GROUP, owner, 'administrator');
    fake.setMember(GROUP, plainMember, 'member');
  });
  afterAll(() => {
    api.settings = saved;
  });

  it('should post one card to the group, record it without an approver, and accept only group admins', async () => {
    const request = api.addRequest();
    const reply = await notify(a, event('created', subscription({ id: request.id })));
    expect(reply.body.deliveries).toMatchObject([
      { to: 'approver', chatId: GROUP, status: 'sent' },
    ]);
    const card = lastMessage(fake, GROUP);
    const recorded = api
      .callsTo('POST', `/api/v1/internal/media-requests/${request.id}/admin-messages`)
      .at(-1)!;
    expect(recorded.body).toEqual({
      messages: [{ chatId: GROUP, messageId: card.message_id, hasPhoto: true, status: 'sent' }],
    });

    await pushTo(
      fake,
      b,
      callbackQuery({ from: plainMember, message: card, data: `ap:${request.id}` }),
    );
    expect(fake.callsTo('answerCallbackQuery').at(-1)!.params.text).toBe(
      '⛔ Only configured approvers can do this.',
    );
    expect(api.requests.get(request.id)!.status).toBe('PENDING');

    await pushTo(fake, a, callbackQuery({ from: owner, message: card, data: `ap:${request.id}` }));
    expect(fake.callsTo('answerCallbackQuery').at(-1)!.params.text).toBe('Approved');
    expect(api.requests.get(request.id)!.status).toBe('APPROVED');
  });

  it('should take the reject reason from the group admin in the group', async () => {
    const request = api.addRequest();
    await notify(a, event('created', subscription({ id: request.id })));
    const card = lastMessage(fake, GROUP);
    await pushTo(fake, a, callbackQuery({ from: owner, message: card, data: `rj:${request.id}` }));
    const prompt = lastMessage(fake, GROUP);
    expect(prompt.text).toContain('Reply with the reason for rejecting Dune');
    await pushTo(
      fake,
      b,
      textMessage({ from: plainMember, chat: prompt.chat, text: 'not my call' }),
    );
    expect(api.requests.get(request.id)!.status).toBe('PENDING');
    await pushTo(fake, b, replyMessage({ from: owner, to: prompt, text: 'Already on the server' }));
    expect(lastMessage(fake, GROUP).text).toBe('❌ Rejected.');
    expect(api.requests.get(request.id)!.rejectReason).toBe('Already on the server');
  });
});
