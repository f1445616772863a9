/**
 * The /search and /resetpw dialogues through the webhook entry point: every button, stale
 * menus, double taps, and API failures, against the stub API and the fake Bot API.
 */
import {
  callbackQuery,
  commandMessage,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
  type TgMessage,
} from '@usher/testkit';
import type { MetadataResult } from '@usher/contracts';
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

const result = (patch: Partial<MetadataResult>): MetadataResult => ({
  tmdbId: 438631,
  mediaType: 'movie',
  title: 'Dune',
  originalTitle: 'Dune',
  year: 2021,
  overview: 'Paul Atreides travels to the most dangerous planet.',
  posterPath: '/dune.jpg',
  voteAverage: 7.8,
  ...patch,
});

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
  api.searchResults = [
    result({}),
    result({
      tmdbId: 1399,
      mediaType: 'tv',
      title: 'Dune: Prophecy',
      originalTitle: 'Dune: Prophecy',
      year: 2024,
      posterPath: null,
    }),
    result({ tmdbId: 841, title: '沙丘', originalTitle: 'Dune', year: 1984 }),
  ];
});

afterEach(() => expect(api.violations).toEqual([]));

const buttons = (m: TgMessage) =>
  (m.reply_markup?.inline_keyboard ?? []).map((row) => row.map((b) => b.text));
const dataOf = (m: TgMessage, text: string) =>
  m.reply_markup!.inline_keyboard.flat().find((b) => b.text === text)!.callback_data!;
const press = async (user: ReturnType<typeof tgUser>, message: TgMessage, data: string) => {
  await pushTo(fake, bot, callbackQuery({ from: user, message, data }));
  return fake.callsTo('answerCallbackQuery').at(-1)!;
};

async function startSearch(user: ReturnType<typeof tgUser>, query = 'Dune') {
  await pushTo(fake, bot, commandMessage({ from: user, command: 'search', args: query }));
  return lastMessage(fake, user.id);
}

describe('/search', () => {
  it('should list the results with numbered buttons and the first poster as preview', async () => {
    const user = tgUser({ id: 6001 });
    api.addAccount(user.id);
    const list = await startSearch(user);
    expect(list.text).toBe(
      [
        '🔍 Results for Dune — pick a number:',
        '1. Dune (2021) · 🎬 Movie',
        '2. Dune: Prophecy (2024) · 📺 Series',
        '3. 沙丘 (1984) · 🎬 Movie — Dune',
      ].join('\n'),
    );
    expect(buttons(list)).toEqual([['1', '2', '3'], ['✖️ Cancel']]);
    expect(list.link_preview_options).toEqual({
      url: 'https://image.tmdb.org/t/p/w500/dune.jpg',
      show_above_text: true,
    });
    const state = api.livePending('search').find((p) => p.messengerUserId === user.id)!;
    expect(state.payload.messageId).toBe(list.message_id);
    expect(api.callsTo('GET', '/api/v1/internal/metadata/search').at(-1)!.path).toContain(
      'query=Dune&type=multi',
    );
  });

  it('should request a movie: pick, confirm, created', async () => {
    const user = tgUser({ id: 6002 });
    api.addAccount(user.id);
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '1'));
    let card = lastMessage(fake, user.id);
    expect(card.text).toContain('📌 Dune (2021)');
    expect(card.text).toContain('Request Dune?');
    expect(buttons(card)).toEqual([['✅ Request', '⬅️ Back'], ['✖️ Cancel']]);
    await press(user, card, dataOf(card, '✅ Request'));
    card = lastMessage(fake, user.id);
    expect(card.text).toBe('✅ Request sent: Dune. An admin will review it.');
    expect(card.reply_markup).toBeUndefined();
    const created = api.callsTo('POST', '/api/v1/internal/media-requests').at(-1)!;
    expect(created.body).toMatchObject({
      messengerId: user.id,
      type: 'MOVIE',
      tmdbId: 438631,
      season: 0,
      confirmExisting: false,
    });
    expect(api.livePending('search').filter((p) => p.messengerUserId === user.id)).toEqual([]);
  });

  it('should pick a season of a series and go back to the seasons', async () => {
    const user = tgUser({ id: 6003 });
    api.addAccount(user.id);
    api.seasons = [1, 2, 3, 4];
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '2'));
    let card = lastMessage(fake, user.id);
    expect(card.text).toContain('📺 Which season?');
    expect(buttons(card)).toEqual([['S1', 'S2', 'S3'], ['S4'], ['📚 Whole series'], ['⬅️ Back']]);
    await press(user, card, dataOf(card, 'S2'));
    card = lastMessage(fake, user.id);
    expect(card.text).toContain('Request Dune: Prophecy · S2?');
    expect(buttons(card)).toEqual([['✅ Request', '⬅️ Seasons'], ['✖️ Cancel']]);
    await press(user, card, dataOf(card, '⬅️ Seasons'));
    card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '📚 Whole series'));
    card = lastMessage(fake, user.id);
    expect(card.text).toContain('Request Dune: Prophecy · all seasons?');
    await press(user, card, dataOf(card, '✅ Request'));
    expect(lastMessage(fake, user.id).text).toBe(
      '✅ Request sent: Dune: Prophecy · all seasons. An admin will review it.',
    );
    expect(api.callsTo('POST', '/api/v1/internal/media-requests').at(-1)!.body).toMatchObject({
      type: 'TV',
      season: 0,
    });
  });

  it('should go back to the list and cancel', async () => {
    const user = tgUser({ id: 6004 });
    api.addAccount(user.id);
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '1'));
    let card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '⬅️ Back'));
    card = lastMessage(fake, user.id);
    expect(card.text).toContain('Results for Dune');
    await press(user, card, dataOf(card, '✖️ Cancel'));
    card = lastMessage(fake, user.id);
    expect(card.text).toBe('Cancelled.');
    expect(card.reply_markup).toBeUndefined();
  });

  it("should describe a season already on the server in the member's language", async () => {
    const user = tgUser({ id: 6015, language_code: 'zh-hans' });
    api.addAccount(user.id);
    api.seasons = [1, 2];
    api.inLibrary.add(1399);
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '2'));
    let card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '第2季'));
    card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '✅ 求片'));
    card = lastMessage(fake, user.id);
    expect(card.text).toBe('ℹ️ 媒体库中已有该内容：Dune: Prophecy 第 2 季（8 集），仍要提交吗？');
    expect(card.text).not.toContain('English');
  });

  it('should offer "request anyway" when the server already has it', async () => {
    const user = tgUser({ id: 6005 });
    api.addAccount(user.id);
    api.searchResults = [result({ tmdbId: 777 })];
    api.inLibrary.add(777);
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '1'));
    let card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '✅ Request'));
    card = lastMessage(fake, user.id);
    expect(card.text).toBe('ℹ️ The server already has this: Dune. Request it anyway?');
    await press(user, card, dataOf(card, '✅ Request anyway'));
    expect(lastMessage(fake, user.id).text).toBe('✅ Request sent: Dune. An admin will review it.');
    expect(api.callsTo('POST', '/api/v1/internal/media-requests').at(-1)!.body).toMatchObject({
      confirmExisting: true,
    });
  });

  it('should say it was already requested', async () => {
    const user = tgUser({ id: 6006 });
    api.addAccount(user.id);
    api.searchResults = [result({ tmdbId: 888 })];
    api.addRequest({ tmdbId: 888, status: 'APPROVED' });
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '1'));
    const card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '✅ Request'));
    expect(lastMessage(fake, user.id).text).toBe('ℹ️ This was already requested (approved).');
  });

  it('should say auto-approved', async () => {
    const user = tgUser({ id: 6007 });
    api.addAccount(user.id);
    api.searchResults = [result({ tmdbId: 999 })];
    api.override('POST', /internal\/media-requests$/, (c) =>
      c.json(
        {
          outcome: 'auto_approved',
          request: {
            ...api.adminRequest(api.addRequest({ tmdbId: 999 })),
            requester: undefined,
            automation: undefined,
          },
        },
        201,
      ),
    );
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '1'));
    const card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '✅ Request'));
    expect(lastMessage(fake, user.id).text).toBe(
      '✅ Approved automatically: Dune. Download starts soon.',
    );
  });

  it('should ask for an active media account', async () => {
    const user = tgUser({ id: 6008 });
    api.addAccount(user.id, { mediaLinked: false });
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '1'));
    const card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '✅ Request'));
    expect(lastMessage(fake, user.id).text).toBe(
      '❌ Requests need an active media account. Renew first with /redeem.',
    );
  });

  it('should say nothing was found', async () => {
    const user = tgUser({ id: 6009 });
    api.addAccount(user.id);
    api.searchResults = [];
    await startSearch(user, 'zzzz <x>');
    expect(lastMessage(fake, user.id).text).toBe('🔍 Nothing found for zzzz <x>.');
  });

  it('should refuse an unbound user before searching', async () => {
    const user = tgUser({ id: 6010 });
    const searches = api.callsTo('GET', '/api/v1/internal/metadata/search').length;
    await startSearch(user);
    expect(lastMessage(fake, user.id).text).toContain("Your Telegram isn't linked yet.");
    expect(api.callsTo('GET', '/api/v1/internal/metadata/search')).toHaveLength(searches);
  });

  it('should show the usage without a title', async () => {
    const user = tgUser({ id: 6011 });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'search' }));
    expect(lastMessage(fake, user.id).text).toBe(
      '❌ Usage: /search Dune (a title, up to 100 characters)',
    );
  });

  it('should answer a stale button and remove the keyboard', async () => {
    const user = tgUser({ id: 6012 });
    api.addAccount(user.id);
    const list = await startSearch(user);
    api.pending.clear();
    const answered = await press(user, list, dataOf(list, '1'));
    expect(answered.params.text).toBe('⌛ This menu has expired. Please send the command again.');
    expect(lastMessage(fake, user.id).reply_markup).toBeUndefined();
  });

  it('should treat an older menu of the same user as stale', async () => {
    const user = tgUser({ id: 6013 });
    api.addAccount(user.id);
    const first = await startSearch(user);
    await startSearch(user, 'Dune again');
    const answered = await press(user, first, dataOf(first, '1'));
    expect(answered.params.text).toBe('⌛ This menu has expired. Please send the command again.');
  });

  it('should answer the callback and keep the menu when the API is down', async () => {
    const user = tgUser({ id: 6014 });
    api.addAccount(user.id);
    const list = await startSearch(user);
    api.down = true;
    const answered = await press(user, list, dataOf(list, '1'));
    expect(answered.status).toBe(200);
    expect(answered.params.text).toBe(
      "⚠️ Usher can't be reached right now. Please try again in a few minutes.",
    );
    expect(lastMessage(fake, user.id).reply_markup).toBeDefined();
  });

  it('should answer every callback exactly once', async () => {
    const user = tgUser({ id: 6015 });
    api.addAccount(user.id);
    const list = await startSearch(user);
    await press(user, list, dataOf(list, '1'));
    const card = lastMessage(fake, user.id);
    await press(user, card, dataOf(card, '✅ Request'));
    const answers = fake.callsTo('answerCallbackQuery');
    expect(answers).toHaveLength(2);
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});

describe('/resetpw', () => {
  it('should confirm, reset and send the password in a spoiler', async () => {
    const user = tgUser({ id: 6101 });
    api.addAccount(user.id);
    await pushTo(fake, bot, commandMessage({ from: user, command: 'resetpw' }));
    const confirm = lastMessage(fake, user.id);
    expect(confirm.text).toContain('🔑 Reset your password?');
    expect(buttons(confirm)).toEqual([['Reset now', '✖️ Cancel']]);
    await press(user, confirm, dataOf(confirm, 'Reset now'));
    const messages = fake.messages(user.id).filter((m) => m.from?.id === fake.bot.id);
    expect(messages.at(-2)!.text).toBe('🔑 Password reset. The new one is in the next message.');
    expect(messages.at(-2)!.reply_markup).toBeUndefined();
    const sent = fake.callsTo('sendMessage').at(-1)!;
    expect(sent.params.text).toBe(
      '✅ Your new password (tap to reveal): <tg-spoiler>Kx7mPq2RtW9vZb4NcH3s</tg-spoiler>\n' +
        'Change it soon at https://usher.example.org/console/account, then delete this message.',
    );
    expect(bot.logs.raw.join('\n')).not.toContain('Kx7mPq2RtW9vZb4NcH3s');
  });

  it('should call the API once on a double tap', async () => {
    const user = tgUser({ id: 6102 });
    api.addAccount(user.id);
    await pushTo(fake, bot, commandMessage({ from: user, command: 'resetpw' }));
    const confirm = lastMessage(fake, user.id);
    const data = dataOf(confirm, 'Reset now');
    await press(user, confirm, data);
    const second = await press(user, confirm, data);
    expect(second.params.text).toBe('⌛ This menu has expired. Please send the command again.');
    expect(
      api
        .callsTo('POST', '/api/v1/internal/messenger/reset-password')
        .filter((c) => (c.body as { messengerId: number }).messengerId === user.id),
    ).toHaveLength(1);
  });

  it('should cancel', async () => {
    const user = tgUser({ id: 6103 });
    api.addAccount(user.id);
    await pushTo(fake, bot, commandMessage({ from: user, command: 'resetpw', args: 'please' }));
    const confirm = lastMessage(fake, user.id);
    expect(fake.callsTo('sendMessage').at(-2)!.params.text).toBe(
      'ℹ️ /resetpw takes no arguments; they were ignored.',
    );
    await press(user, confirm, dataOf(confirm, '✖️ Cancel'));
    expect(lastMessage(fake, user.id).text).toBe('Cancelled.');
    expect(
      api
        .callsTo('POST', '/api/v1/internal/messenger/reset-password')
        .filter((c) => (c.body as { messengerId: number }).messengerId === user.id),
    ).toEqual([]);
  });

  it('should refuse an unbound user', async () => {
    const user = tgUser({ id: 6104 });
    await pushTo(fake, bot, commandMessage({ from: user, command: 'resetpw' }));
    expect(lastMessage(fake, user.id).text).toContain("Your Telegram isn't linked yet.");
    expect(api.livePending('resetpw').filter((p) => p.messengerUserId === user.id)).toEqual([]);
  });

  it('should say unavailable when the media server fails (502)', async () => {
    const user = tgUser({ id: 6105 });
    api.addAccount(user.id);
    api.override('POST', /reset-password$/, (c) =>
      c.json(
        {
          error: {
            code: 'UPSTREAM_UNAVAILABLE',
            message: 'x',
            requestId: 'r',
            details: { system: 'media_server' },
          },
        },
        502,
      ),
    );
    await pushTo(fake, bot, commandMessage({ from: user, command: 'resetpw' }));
    const confirm = lastMessage(fake, user.id);
    await press(user, confirm, dataOf(confirm, 'Reset now'));
    expect(lastMessage(fake, user.id).text).toBe(
      "⚠️ Usher can't be reached right now. Please try again in a few minutes.",
    );
  });
});

describe('/cancel', () => {
  it('should cancel a live dialogue, then say there is nothing to cancel', async () => {
    const user = tgUser({ id: 6201 });
    api.addAccount(user.id);
    await startSearch(user);
    await pushTo(fake, bot, commandMessage({ from: user, command: 'cancel' }));
    expect(lastMessage(fake, user.id).text).toBe('Cancelled.');
    await pushTo(fake, bot, commandMessage({ from: user, command: 'cancel' }));
    expect(lastMessage(fake, user.id).text).toBe('Nothing to cancel.');
  });
});
