/**
 * Commands through the real webhook entry point (`POST /messenger/webhook`, delivered by the fake
 * Bot API) against the stub API: happy and error paths of /start /help /bind /info /redeem,
 * private-only commands in groups, plain text, and the API being down.
 */
import {
  commandMessage,
  groupChat,
  startFakeTelegram,
  textMessage,
  tgUser,
  type FakeTelegram,
} from '@usher/testkit';
import {
  INTERNAL_SECRET,
  lastMessage,
  pushTo,
  startReplica,
  type Replica,
} from './support/harness.js';
import { StubApi } from './support/stub-api.js';

let fake: FakeTelegram;
let api: StubApi;
let bot: Replica;

const alice = tgUser({ id: 5001, first_name: 'Alice', username: 'alice', language_code: 'en' });
const li = tgUser({ id: 5002, first_name: '李', language_code: 'zh-hans' });
const stranger = tgUser({ id: 5003, first_name: 'Sam', language_code: 'fr' });

beforeAll(async () => {
  fake = await startFakeTelegram();
  api = await new StubApi(INTERNAL_SECRET).start();
  bot = await startReplica({
    telegram: fake,
    apiUrl: api.url,
    apiTimeouts: { settings: 1000, other: 1000 },
  });
});

afterAll(async () => {
  await bot.close();
  await api.close();
  await fake.close();
});

beforeEach(() => {
  fake.resetCalls();
  api.down = false;
  api.overrides.splice(0);
});

afterEach(() => {
  expect(api.violations).toEqual([]);
});

const text = (chatId: number) => lastMessage(fake, chatId).text ?? '';

describe('/start and /help', () => {
  it('should greet by first name and list the commands', async () => {
    await pushTo(fake, bot, commandMessage({ from: alice, command: 'start' }));
    expect(text(alice.id)).toContain('Hi Alice! Here is what I can do:');
    expect(text(alice.id)).toContain('/search title — request a movie or series');
  });

  it('should answer in Simplified Chinese for a zh language code', async () => {
    await pushTo(fake, bot, commandMessage({ from: li, command: 'help' }));
    expect(text(li.id)).toContain('Usher 机器人');
  });

  it('should fall back to BOT_LANGUAGE for other languages', async () => {
    await pushTo(fake, bot, commandMessage({ from: stranger, command: 'help' }));
    expect(text(stranger.id)).toContain('Usher bot');
  });

  it('should bind through the deep link /start bind_123456', async () => {
    api.bindCodes.set('246810', { ...api.addAccount(9), username: 'deep' });
    api.accounts.delete(9);
    const user = tgUser({ id: 5010, first_name: 'Deep' });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'start', args: 'bind_246810' }));
    expect(text(user.id)).toBe('✅ Linked to Usher account deep.');
  });

  it('should escape HTML in the first name', async () => {
    const user = tgUser({ id: 5011, first_name: '<b>x</b> & "y"' });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'start' }));
    expect(text(user.id)).toContain('Hi <b>x</b> & "y"!');
    expect(fake.callsTo('sendMessage').at(-1)!.params.text).toContain(
      '&lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot;',
    );
  });
});

describe('/bind', () => {
  it('should link the Telegram account with a valid code', async () => {
    const target = api.addAccount(1, { username: 'bob' });
    api.accounts.delete(1);
    api.bindCodes.set('123456', target);
    const bob = tgUser({ id: 5020, first_name: 'Bob' });
    await pushTo(fake, bot, commandMessage({ from: bob, command: 'bind', args: '123456' }));
    expect(text(bob.id)).toBe('✅ Linked to Usher account bob.');
    const call = api.callsTo('POST', '/api/v1/internal/messenger/bind').at(-1)!;
    expect(call.body).toEqual({ messengerId: bob.id, code: '123456', languageCode: 'en' });
    expect(call.requestId).toMatch(/^tg-\d+$/);
  });

  it('should say the code is unknown or expired', async () => {
    const user = tgUser({ id: 5021 });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'bind', args: '999999' }));
    expect(text(user.id)).toBe(
      '❌ This code is unknown or expired (codes last 5 minutes). Get a new one in the console.',
    );
  });

  it('should say this Telegram is already linked elsewhere', async () => {
    api.addAccount(5022);
    api.bindCodes.set('111111', api.addAccount(77));
    const user = tgUser({ id: 5022 });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'bind', args: '111111' }));
    expect(text(user.id)).toBe(
      '❌ This Telegram account is already linked to another Usher account.',
    );
  });

  it('should say the account is bound to another Telegram', async () => {
    api.override('POST', /messenger\/bind$/, (c) =>
      c.json({ error: { code: 'MESSENGER_ALREADY_BOUND', message: 'x', requestId: 'r' } }, 409),
    );
    const user = tgUser({ id: 5023 });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'bind', args: '222222' }));
    expect(text(user.id)).toBe(
      '❌ That Usher account is already linked to a different Telegram account.',
    );
  });

  it.each([[''], ['12345'], ['1234567'], ['abcdef'], ['123456 7']])(
    'should show the usage for arguments %j without calling the API',
    async (args) => {
      const user = tgUser({ id: 5024 });
      const before = api.calls.length;
      await pushTo(fake, bot, commandMessage({ from: user, command: 'bind', args }));
      expect(fake.callsTo('sendMessage').at(-1)!.params.text).toBe(
        '❌ <b>Usage:</b> <code>/bind 123456</code> (6 digits from Console → Account)',
      );
      expect(api.calls.slice(before).filter((c) => c.path.includes('/messenger/'))).toEqual([]);
    },
  );

  it('should answer in a group with a button to the private chat and not call the API', async () => {
    const group = groupChat(-4001, 'Friends');
    const before = api.calls.length;
    await pushTo(
      fake,
      bot,
      commandMessage({ from: alice, chat: group, command: 'bind', args: '123456' }),
    );
    const sent = fake.callsTo('sendMessage').at(-1)!;
    expect(sent.params.chat_id).toBe(group.id);
    expect(sent.params.text).toBe('Please use this command in a private chat with me.');
    expect(sent.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Open chat', url: 'https://t.me/usher_test_bot' }]],
    });
    expect(api.calls.slice(before).filter((c) => c.path.includes('/messenger/'))).toEqual([]);
  });

  it('should accept /bind@botname in a private chat', async () => {
    const target = api.addAccount(3, { username: 'carol' });
    api.accounts.delete(3);
    api.bindCodes.set('333333', target);
    const carol = tgUser({ id: 5025 });
    await pushTo(
      fake,
      bot,
      commandMessage({
        from: carol,
        command: 'bind',
        args: '333333',
        botUsername: 'usher_test_bot',
      }),
    );
    expect(text(carol.id)).toBe('✅ Linked to Usher account carol.');
  });

  it('should ignore /bind@otherbot', async () => {
    const user = tgUser({ id: 5026 });
    await pushTo(
      fake,
      bot,
      commandMessage({ from: user, command: 'bind', args: '333333', botUsername: 'other_bot' }),
    );
    expect(fake.callsTo('sendMessage')).toEqual([]);
  });
});

describe('/info', () => {
  it('should show the account card', async () => {
    const user = tgUser({ id: 5030 });
    api.addAccount(user.id, {
      username: 'dora',
      email: 'dora@example.org',
      expiresAt: '2026-12-24T18:05:00.000Z',
    });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'info' }));
    expect(text(user.id)).toBe(
      [
        '📋 Your account',
        '👤 dora',
        '✉️ dora@example.org',
        '🟢 Active',
        '⏳ Valid until: 2026-12-24 18:05',
      ].join('\n'),
    );
  });

  it('should mark an expired account and add the renew tip', async () => {
    const user = tgUser({ id: 5031 });
    api.addAccount(user.id, {
      isExpired: true,
      email: null,
      expiresAt: '2025-01-01T00:00:00.000Z',
    });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'info' }));
    expect(text(user.id)).toContain('🔴 Expired');
    expect(text(user.id)).toContain('💡 Renew with /redeem CODE or in the web console.');
    expect(text(user.id)).not.toContain('✉️');
  });

  it('should show no expiry and no media account', async () => {
    const user = tgUser({ id: 5032, language_code: 'zh' });
    api.addAccount(user.id, { expiresAt: null, mediaLinked: false });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'info' }));
    expect(text(user.id)).toContain('⚪ 未开通媒体账号');
    expect(text(user.id)).toContain('⏳ 有效期至：永久有效');
  });

  it('should explain how to link an unbound Telegram', async () => {
    const user = tgUser({ id: 5033 });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'info' }));
    expect(text(user.id)).toBe(
      "Your Telegram isn't linked yet. In the web console open Account → Telegram, get a 6-digit code, then send /bind 123456.",
    );
  });

  it('should reply politely when the API is down and keep serving', async () => {
    const user = tgUser({ id: 5034 });
    api.down = true;
    await pushTo(fake, bot, commandMessage({ from: user, command: 'info' }));
    expect(text(user.id)).toBe(
      "⚠️ Usher can't be reached right now. Please try again in a few minutes.",
    );
    api.down = false;
    api.addAccount(user.id);
    await pushTo(fake, bot, commandMessage({ from: user, command: 'info' }));
    expect(text(user.id)).toContain('🟢 Active');
  });

  it('should reply politely when the API times out', async () => {
    const user = tgUser({ id: 5035 });
    // A replica of its own whose lookups give up after 200 ms, not the suite's 1 s.
    const hasty = await startReplica({
      telegram: fake,
      apiUrl: api.url,
      apiTimeouts: { settings: 1000, other: 200 },
    });
    api.override('POST', /messenger\/lookup$/, async (c) => {
      await new Promise((r) => setTimeout(r, 1500));
      return c.json({});
    });
    try {
      await pushTo(fake, hasty, commandMessage({ from: user, command: 'info' }));
      expect(text(user.id)).toBe(
        "⚠️ Usher can't be reached right now. Please try again in a few minutes.",
      );
    } finally {
      await hasty.close();
    }
  });
});

describe('/redeem', () => {
  const user = tgUser({ id: 5040 });
  beforeAll(() => {
    api.addAccount(user.id);
    api.redeemCodes.set('ABCD1234EF567890', { days: 30, state: 'ok', usedBy: new Set() });
    api.redeemCodes.set('EXPIRED000000000', { days: 30, state: 'expired', usedBy: new Set() });
  });

  it('should add the days and show the new expiry', async () => {
    await pushTo(
      fake,
      bot,
      commandMessage({ from: user, command: 'redeem', args: 'ABCD1234EF567890' }),
    );
    expect(text(user.id)).toBe('🎉 Code redeemed: +30 days. New expiry: 2027-03-02 08:30.');
  });

  it('should say the code was already used', async () => {
    await pushTo(
      fake,
      bot,
      commandMessage({ from: user, command: 'redeem', args: 'ABCD1234EF567890' }),
    );
    expect(text(user.id)).toBe('❌ You have already used this code.');
  });

  it('should say there is no such code', async () => {
    await pushTo(fake, bot, commandMessage({ from: user, command: 'redeem', args: 'NOPE' }));
    expect(text(user.id)).toBe('❌ No such code.');
  });

  it('should say the code is used up or expired', async () => {
    await pushTo(
      fake,
      bot,
      commandMessage({ from: user, command: 'redeem', args: 'EXPIRED000000000' }),
    );
    expect(text(user.id)).toBe('❌ This code is used up or expired.');
  });

  it('should show the usage for a bad argument', async () => {
    await pushTo(fake, bot, commandMessage({ from: user, command: 'redeem', args: 'a<b' }));
    expect(text(user.id)).toContain('Usage:');
  });

  it('should explain binding to an unbound Telegram', async () => {
    const other = tgUser({ id: 5041 });
    await pushTo(
      fake,
      bot,
      commandMessage({ from: other, command: 'redeem', args: 'ABCD1234EF567890' }),
    );
    expect(text(other.id)).toContain("Your Telegram isn't linked yet.");
  });

  it('should show an unmapped error code', async () => {
    api.override('POST', /messenger\/redeem$/, (c) =>
      c.json({ error: { code: 'ACCOUNT_NOT_RENEWABLE', message: 'x', requestId: 'r' } }, 422),
    );
    await pushTo(
      fake,
      bot,
      commandMessage({ from: user, command: 'redeem', args: 'ABCD1234EF567890' }),
    );
    expect(text(user.id)).toBe("❌ That didn't work (ACCOUNT_NOT_RENEWABLE).");
  });
});

describe('plain text and logs', () => {
  it('should hint at /help for plain text in a private chat', async () => {
    const user = tgUser({ id: 5050 });
    await pushTo(fake, bot, textMessage({ from: user, text: 'hello?' }));
    expect(text(user.id)).toBe('Send /help to see what I can do.');
  });

  it('should ignore plain text in a group', async () => {
    const group = groupChat(-4002, 'Chat');
    await pushTo(fake, bot, textMessage({ from: alice, chat: group, text: 'hello' }));
    expect(fake.callsTo('sendMessage')).toEqual([]);
    const line = bot.logs.lines.filter((l) => l.msg === 'update').at(-1)!;
    expect(line).toMatchObject({ type: 'message', chatType: 'group', outcome: 'ignored' });
  });

  it('should log one line per update without the message text or arguments', async () => {
    const user = tgUser({ id: 5051 });
    await pushTo(
      fake,
      bot,
      commandMessage({ from: user, command: 'redeem', args: 'SECRETCODE42' }),
    );
    const line = bot.logs.lines.filter((l) => l.msg === 'update').at(-1)!;
    expect(line).toMatchObject({
      command: 'redeem',
      chatType: 'private',
      fromId: user.id,
      outcome: 'ok',
    });
    expect(line.requestId).toMatch(/^tg-\d+$/);
    expect(bot.logs.raw.join('\n')).not.toContain('SECRETCODE42');
  });
});

describe('api failure logs', () => {
  it('should log the API error code (not redacted) but never the bind code', async () => {
    const user = tgUser({ id: 5060 });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'bind', args: '424242' }));
    const line = bot.logs.lines.filter((l) => l.msg === 'api call failed').at(-1)!;
    expect(line).toMatchObject({
      route: '/internal/messenger/bind',
      status: 422,
      errorCode: 'BIND_CODE_INVALID',
    });
    expect(bot.logs.raw.join('\n')).not.toContain('424242');
  });
});
