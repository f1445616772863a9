import { randomUUID } from 'node:crypto';
/**
 * The bot's HTTP edge (40-bot.md §2): secrets on /messenger/webhook and /notify/*, validation,
 * the registration / payment / ranking pushes, /health, /metrics, and the group features
 * (welcome, command menus) that ride on the webhook.
 */
import {
  commandMessage,
  eventually,
  groupChat,
  newChatMembers,
  privateChat,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
} from '@usher/testkit';
import {
  INTERNAL_SECRET,
  WEBHOOK_SECRET,
  lastMessage,
  notifyHeaders,
  pushTo,
  startReplica,
  type Replica,
} from './support/harness.js';
import { event, payment, ranking, registration, subscription } from './support/payloads.js';
import { StubApi } from './support/stub-api.js';

let fake: FakeTelegram;
let api: StubApi;
let bot: Replica;

const ADMIN_CHAT = -1001000000001;
const GROUP = -1001000000002;
const admin = tgUser({ id: 8001, first_name: 'Ada' });

beforeAll(async () => {
  fake = await startFakeTelegram();
  api = await new StubApi(INTERNAL_SECRET).start();
  fake.seedChat({ id: ADMIN_CHAT, type: 'supergroup', title: 'Admins' });
  fake.seedChat({ id: GROUP, type: 'supergroup', title: 'Community' });
  fake.seedChat(privateChat(admin));
  bot = await startReplica({ telegram: fake, apiUrl: api.url });
});

afterAll(async () => {
  await bot.close();
  await api.close();
  await fake.close();
});

beforeEach(() => {
  fake.resetCalls();
  api.settings = {
    ...api.settings,
    adminChatId: String(ADMIN_CHAT),
    groupChatId: String(GROUP),
    approverIds: [],
  };
});

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  bot.app.request(path, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('POST /messenger/webhook', () => {
  const update = {
    update_id: 42,
    message: { message_id: 1, date: 1, chat: privateChat(admin), from: admin, text: 'hi' },
  };

  it.each([
    ['missing', {}],
    ['wrong', { 'x-telegram-bot-api-secret-token': 'x'.repeat(64) }],
    ['wrong length', { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET.slice(1) }],
  ])('should answer 401 for a %s secret and process nothing', async (_name, headers) => {
    const res = await post('/messenger/webhook', update, {
      'content-type': 'application/json',
      ...headers,
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { code: string; requestId: string } };
    expect(body.error.code).toBe('WEBHOOK_TOKEN_INVALID');
    expect(body.error.requestId).toMatch(/^bot-/);
    expect(fake.calls).toEqual([]);
  });

  it('should answer 400 for a body without an integer update_id', async () => {
    const headers = {
      'content-type': 'application/json',
      'x-telegram-bot-api-secret-token': WEBHOOK_SECRET,
    };
    expect((await post('/messenger/webhook', { update_id: 'x' }, headers)).status).toBe(400);
    expect((await post('/messenger/webhook', '[1]', headers)).status).toBe(400);
    expect((await post('/messenger/webhook', 'not json', headers)).status).toBe(400);
    expect(fake.calls).toEqual([]);
  });

  it('should answer 200 and handle the update with the right secret', async () => {
    const res = await post('/messenger/webhook', update, {
      'content-type': 'application/json',
      'x-telegram-bot-api-secret-token': WEBHOOK_SECRET,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(fake.callsTo('sendMessage')).toHaveLength(1);
  });

  it('should answer 413 over 1 MiB', async () => {
    const res = await post(
      '/messenger/webhook',
      { update_id: 1, pad: 'x'.repeat(1024 * 1024) },
      {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': WEBHOOK_SECRET,
      },
    );
    expect(res.status).toBe(413);
  });

  it('should answer 409 in polling mode', async () => {
    const polling = await startReplica({
      telegram: fake,
      apiUrl: api.url,
      env: { MESSENGER_UPDATE_MODE: 'polling', DATABASE_URL: 'postgres://u:p@127.0.0.1:1/db' },
    });
    try {
      const res = await polling.app.request('/messenger/webhook', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-telegram-bot-api-secret-token': WEBHOOK_SECRET,
        },
        body: JSON.stringify(update),
      });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
        'WRONG_UPDATE_MODE',
      );
    } finally {
      await polling.close();
    }
  });
});

describe('POST /notify/*', () => {
  it.each(['subscription', 'registration', 'payment', 'ranking', 'member'])(
    'should answer 401 on /notify/%s without or with a wrong secret, before reading the body',
    async (kind) => {
      for (const headers of [
        { 'content-type': 'application/json' },
        notifyHeaders('y'.repeat(64)),
      ]) {
        const res = await post(`/notify/${kind}`, '{not json', headers);
        expect(res.status).toBe(401);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
          'INTERNAL_AUTH_FAILED',
        );
      }
      expect(fake.calls).toEqual([]);
    },
  );

  it('should answer 400 with the zod issues for an unknown event', async () => {
    const res = await post(
      '/notify/subscription',
      event('deleted', subscription()),
      notifyHeaders(),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details[0]!.path).toBe('event');
    expect(fake.calls).toEqual([]);
  });

  it('should answer 400 for a bad body', async () => {
    const res = await post('/notify/payment', payment({ currency: 'USD' }), notifyHeaders());
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { details: { path: string }[] } };
    expect(body.error.details.map((d) => d.path)).toEqual(['currency']);
  });

  it('should send a registration to the admin chat', async () => {
    const res = await post(
      '/notify/registration',
      registration({ email: 'a&b@example.org' }),
      notifyHeaders(),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { deliveries: unknown[] };
    expect(body.deliveries).toEqual([
      {
        to: 'adminChat',
        chatId: ADMIN_CHAT,
        status: 'sent',
        messageId: lastMessage(fake, ADMIN_CHAT).message_id,
      },
    ]);
    expect(lastMessage(fake, ADMIN_CHAT).text).toBe(
      [
        '🆕 New user',
        '👤 newbie',
        '✉️ a&b@example.org',
        '🎬 Media user: a1b2c3',
        '🧾 Invite code',
        '⏳ Expires: 2026-12-22 09:30',
      ].join('\n'),
    );
  });

  it('should send a member notice to the member, escaped as plain text', async () => {
    const res = await post(
      '/notify/member',
      {
        eventId: randomUUID(),
        occurredAt: new Date().toISOString(),
        notice: 'membership_reminder',
        userId: randomUUID(),
        messengerId: admin.id,
        locale: 'en',
        text: 'Hi <b>bob</b> & co,\nrenew at https://usher.example/console/renewal',
      },
      notifyHeaders(),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      deliveries: [
        {
          to: 'member',
          chatId: admin.id,
          status: 'sent',
          messageId: lastMessage(fake, admin.id).message_id,
        },
      ],
    });
    expect(lastMessage(fake, admin.id).text).toBe(
      'Hi <b>bob</b> & co,\nrenew at https://usher.example/console/renewal',
    );
    expect(lastMessage(fake, admin.id).reply_markup).toBeUndefined();
  });

  it("should add a Renew button to a reminder that carries the member's renewal page", async () => {
    const renewUrl = 'https://usher.example/console/renewal?from=reminder';
    for (const [locale, label] of [
      ['en', 'Renew'],
      ['zh-CN', '立即续费'],
    ] as const) {
      const res = await post(
        '/notify/member',
        {
          eventId: randomUUID(),
          occurredAt: new Date().toISOString(),
          notice: 'membership_reminder',
          userId: randomUUID(),
          messengerId: admin.id,
          locale,
          text: 'Your membership ends in 3 day(s).',
          renewUrl,
        },
        notifyHeaders(),
      );
      expect(res.status).toBe(200);
      expect(lastMessage(fake, admin.id).reply_markup).toEqual({
        inline_keyboard: [[{ text: label, url: renewUrl }]],
      });
    }
    // Telegram refuses URL buttons it cannot open: the contract accepts https only.
    const plain = await post(
      '/notify/member',
      {
        eventId: randomUUID(),
        occurredAt: new Date().toISOString(),
        notice: 'membership_reminder',
        userId: randomUUID(),
        messengerId: admin.id,
        locale: 'en',
        text: 'Your membership ends soon.',
        renewUrl: 'http://localhost:8080/console/renewal',
      },
      notifyHeaders(),
    );
    expect(plain.status).toBe(400);
  });

  it('should send a payment in the configured time zone', async () => {
    api.settings = { ...api.settings, timezone: 'Asia/Shanghai' };
    const body = payment();
    const res = await post('/notify/payment', body, notifyHeaders());
    expect(res.status).toBe(200);
    expect(lastMessage(fake, ADMIN_CHAT).text).toBe(
      [
        '💰 Payment received',
        '👤 payer',
        '📦 Monthly',
        '💵 $12.99',
        '➕ 30 days',
        '⏳ 2026-12-01 08:00 → 2026-12-31 08:00',
        `🧾 ${body.paymentId}`,
      ].join('\n'),
    );
    api.settings = { ...api.settings, timezone: 'UTC' };
  });

  it('should skip when the admin chat is not configured', async () => {
    api.settings = { ...api.settings, adminChatId: null };
    const res = await post('/notify/registration', registration(), notifyHeaders());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      deliveries: [
        { to: 'adminChat', chatId: null, status: 'skipped', reason: 'chat_not_configured' },
      ],
    });
    expect(fake.calls.filter((c) => c.method.startsWith('send'))).toEqual([]);
  });

  it('should post the ranking to the group chat with medals and sent:true', async () => {
    const res = await post('/notify/ranking', ranking(), notifyHeaders());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sent: boolean }).sent).toBe(true);
    expect(lastMessage(fake, GROUP).text).toBe(
      [
        '🏆 Daily top plays',
        '📅 2026-11-21 ~ 2026-11-21 · until 08:00',
        '⏱ Total: 1d 2h 3m',
        '',
        '🎬 Movies',
        '🥇 Dune · ⏱ 15h 0m · ▶ 12',
        '🥈 Heat <1995> · ⏱ 2h 30m · ▶ 3',
        '',
        '📺 Series',
        '🥇 Severance · ⏱ 8h 33m · ▶ 7',
      ].join('\n'),
    );
  });

  it('should post the ranking to the admin chat when no group is set, and say so when empty', async () => {
    api.settings = { ...api.settings, groupChatId: null };
    const res = await post('/notify/ranking', ranking({ movies: [], series: [] }), notifyHeaders());
    expect(((await res.json()) as { deliveries: { to: string }[] }).deliveries[0]!.to).toBe(
      'adminChat',
    );
    expect(lastMessage(fake, ADMIN_CHAT).text).toContain('📭 No plays in this period.');
  });

  it('should answer 502 DELIVERY_FAILED when the only delivery failed', async () => {
    fake.failNext('sendMessage', { error_code: 400, description: 'Bad Request: chat not found' });
    const res = await post('/notify/registration', registration(), notifyHeaders());
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; details: { status: string }[] } };
    expect(body.error.code).toBe('DELIVERY_FAILED');
    expect(body.error.details[0]!.status).toBe('failed');
  });

  it('should report a send still running at the deadline as failed, and finish it anyway', async () => {
    const hasty = await startReplica({ telegram: fake, apiUrl: api.url, notifyDeadlineMs: 150 });
    fake.faults.slow(600);
    try {
      const res = await hasty.app.request('/notify/registration', {
        method: 'POST',
        headers: notifyHeaders(),
        body: JSON.stringify(registration({ username: 'late' })),
      });
      expect(res.status).toBe(502);
      const body = (await res.json()) as {
        error: { details: { status: string; reason: string }[] };
      };
      expect(body.error.details).toEqual([
        { to: 'adminChat', chatId: ADMIN_CHAT, status: 'failed', reason: 'deadline' },
      ]);
      // The send goes on after the reply and lands once the slow fake answers (600 ms).
      await eventually(() => expect(lastMessage(fake, ADMIN_CHAT).text).toContain('👤 late'));
    } finally {
      fake.faults.slow(0);
      await hasty.close();
    }
  });

  it('should wait retry_after once on 429, then deliver', async () => {
    fake.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    });
    const res = await post('/notify/registration', registration(), notifyHeaders());
    expect(res.status).toBe(200);
    expect(fake.callsTo('sendMessage').map((c) => c.status)).toEqual([429, 200]);
  });

  it('should log one notify line', async () => {
    await post('/notify/registration', registration(), notifyHeaders());
    const line = bot.logs.lines.filter((l) => l.msg === 'notify').at(-1)!;
    expect(line).toMatchObject({
      kind: 'registration',
      event: 'registration',
      deliveries: { sent: 1, failed: 0, skipped: 0 },
    });
  });
});

describe('GET /health and /metrics', () => {
  it('should report each state of §2.1', async () => {
    const health = async () => {
      const res = await bot.app.request('/health');
      return { status: res.status, body: await res.json() };
    };
    bot.health.webhookRegistered = true;
    expect(await health()).toEqual({
      status: 200,
      body: { status: 'ok', updateMode: 'webhook', webhookRegistered: true },
    });
    Object.assign(bot.health, {
      webhookRegistered: false,
      degraded: true,
      lastError: 'Bad Request: bad webhook',
      attempts: 6,
    });
    expect(await health()).toEqual({
      status: 503,
      body: {
        status: 'degraded',
        updateMode: 'webhook',
        webhookRegistered: false,
        lastError: 'Bad Request: bad webhook',
        attempts: 6,
      },
    });
    Object.assign(bot.health, {
      updateMode: 'polling',
      degraded: false,
      lease: { held: true, expiresAt: '2026-11-22T09:31:30.000Z' },
    });
    expect((await health()).body).toEqual({
      status: 'ok',
      updateMode: 'polling',
      webhookRegistered: false,
      lease: { held: true, expiresAt: '2026-11-22T09:31:30.000Z' },
    });
    Object.assign(bot.health, {
      degraded: true,
      lastError: 'polling lease lost',
      lease: { held: false },
    });
    delete bot.health.attempts;
    expect(await health()).toEqual({
      status: 503,
      body: {
        status: 'degraded',
        updateMode: 'polling',
        webhookRegistered: false,
        lease: { held: false },
        lastError: 'polling lease lost',
      },
    });
    Object.assign(bot.health, { updateMode: 'webhook', degraded: false, webhookRegistered: true });
    delete bot.health.lease;
  });

  it('should expose the bot metrics labelled by route template', async () => {
    await post('/notify/registration', registration(), notifyHeaders());
    const text = await (await bot.app.request('/metrics')).text();
    expect(text).toContain(
      'usher_bot_notify_total{kind="registration",event="registration",outcome="sent"}',
    );
    expect(text).toContain(
      'usher_bot_http_requests_total{route="/notify/:kind",method="POST",status="200"}',
    );
    expect(text).toContain('usher_bot_telegram_calls_total{method="sendMessage",outcome="ok"}');
    expect(text).toContain('usher_bot_api_calls_total{route="/internal/settings",status="200"}');
    expect(text).toContain('usher_bot_updates_total');
  });

  it('should echo a safe X-Request-Id and pass it on to the API', async () => {
    api.settings = { ...api.settings, approverIds: [String(admin.id)] };
    const request = api.addRequest();
    const res = await bot.app.request('/notify/subscription', {
      method: 'POST',
      headers: { ...notifyHeaders(), 'x-request-id': 'req-abc.123' },
      body: JSON.stringify(event('created', subscription({ id: request.id }))),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-abc.123');
    const recorded = api.callsTo(
      'POST',
      `/api/v1/internal/media-requests/${request.id}/admin-messages`,
    );
    expect(recorded.at(-1)!.requestId).toBe('req-abc.123');
    const unsafe = await bot.app.request('/health', { headers: { 'x-request-id': 'bad id <x>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^bot-[0-9a-f-]{36}$/);
  });
});

describe('group welcome', () => {
  const joiner = tgUser({ id: 8101, first_name: 'Zoë <3' });
  const robot = { ...tgUser({ id: 8102, first_name: 'Robo' }), is_bot: true };
  const community = { id: GROUP, type: 'supergroup' as const, title: 'Community' };

  it('should welcome people (not bots) and delete the message after 30 s', async () => {
    api.settings = {
      ...api.settings,
      welcomeTemplate: 'Welcome {names}! Rules: {groupLink}',
      groupLink: 'https://t.me/+abc&d',
    };
    await pushTo(
      fake,
      bot,
      newChatMembers({ chat: community, from: joiner, members: [joiner, robot] }),
    );
    const sent = fake.callsTo('sendMessage').at(-1)!;
    expect(sent.params.text).toBe('Welcome Zoë &lt;3! Rules: https://t.me/+abc&amp;d');
    expect(bot.timers.pending.map((t) => t.ms)).toEqual([30_000]);
    bot.timers.runAll();
    await eventually(() => expect(fake.callsTo('deleteMessage').at(-1)?.status).toBe(200));
    expect(fake.messages(GROUP).some((m) => m.text?.startsWith('Welcome'))).toBe(false);
  });

  it('should send nothing when the template needs a group link that is not set', async () => {
    api.settings = {
      ...api.settings,
      welcomeTemplate: 'Hi {names}, see {groupLink}',
      groupLink: null,
    };
    await pushTo(fake, bot, newChatMembers({ chat: community, from: joiner, members: [joiner] }));
    expect(fake.callsTo('sendMessage')).toEqual([]);
  });

  it('should send nothing with an empty template or in another group', async () => {
    api.settings = { ...api.settings, welcomeTemplate: '' };
    await pushTo(fake, bot, newChatMembers({ chat: community, from: joiner, members: [joiner] }));
    api.settings = { ...api.settings, welcomeTemplate: 'Hi {names}' };
    await pushTo(
      fake,
      bot,
      newChatMembers({ chat: groupChat(-5005, 'Other'), from: joiner, members: [joiner] }),
    );
    expect(fake.callsTo('sendMessage')).toEqual([]);
  });

  it('should resend as plain text when the template is broken HTML', async () => {
    api.settings = { ...api.settings, welcomeTemplate: '<b>Hi {names}', groupLink: null };
    await pushTo(fake, bot, newChatMembers({ chat: community, from: joiner, members: [joiner] }));
    const calls = fake.callsTo('sendMessage');
    expect(calls.map((c) => c.status)).toEqual([400, 200]);
    expect(calls[1]!.params.text).toBe('Hi Zoë <3');
    expect(calls[1]!.params.parse_mode).toBeUndefined();
  });
});

describe('command menus', () => {
  it('should refresh menus for an approver: private scopes set, group scopes deleted', async () => {
    api.settings = { ...api.settings, approverIds: [String(admin.id)] };
    await pushTo(fake, bot, commandMessage({ from: admin, command: 'refresh_menu' }));
    expect(lastMessage(fake, admin.id).text).toBe('✅ Command menus refreshed.');
    const set = fake.callsTo('setMyCommands');
    expect(set.map((c) => c.params.language_code ?? '')).toEqual(['', 'en', 'zh']);
    expect(
      set.every((c) => (c.params.scope as { type: string }).type === 'all_private_chats'),
    ).toBe(true);
    expect((set[2]!.params.commands as { command: string }[]).map((c) => c.command)).toEqual([
      'search',
      'info',
      'redeem',
      'bind',
      'resetpw',
      'help',
    ]);
    expect(
      fake.callsTo('deleteMyCommands').map((c) => (c.params.scope as { type: string }).type),
    ).toEqual(['default', 'all_group_chats', 'all_chat_administrators']);
  });

  it('should refuse someone who is neither approver nor group admin', async () => {
    const user = tgUser({ id: 8201 });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'refresh_menu' }));
    expect(lastMessage(fake, user.id).text).toBe('⛔ Only configured approvers can do this.');
    expect(fake.callsTo('setMyCommands')).toEqual([]);
  });

  it('should let a group administrator refresh when the bot is an administrator too', async () => {
    const group = groupChat(-5006, 'Club');
    const owner = tgUser({ id: 8202 });
    fake.seedChat(group);
    fake.setMember(group.id, owner, 'creator');
    fake.setMember(group.id, fake.bot.id, 'administrator');
    await pushTo(
      fake,
      bot,
      commandMessage({
        from: owner,
        chat: group,
        command: 'refresh_menu',
        botUsername: 'usher_test_bot',
      }),
    );
    expect(lastMessage(fake, group.id).text).toBe('✅ Command menus refreshed.');
    expect(
      fake
        .callsTo('deleteMyCommands')
        .slice(-2)
        .map((c) => c.params.scope),
    ).toEqual([
      { type: 'chat', chat_id: group.id },
      { type: 'chat_administrators', chat_id: group.id },
    ]);
  });
});
