/**
 * "API down → polite reply, no crash" (40-bot.md §6.1, §11.1) for every command that calls the
 * API, through the webhook entry point: the API answering 503, not listening at all (a closed
 * port), and too slow (the client's timeout). Each time the user gets `common.unavailable` in
 * their language, the webhook still answers 200, and the next update is served normally.
 */
import {
  callbackQuery,
  commandMessage,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
  type TgMessage,
} from '@usher/testkit';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { Lang } from '../src/config.js';
import { t } from '../src/format/i18n/index.js';
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
/** Talks to the stub API with short timeouts (500 ms), so slow routes time out quickly. */
let bot: Replica;
/** Points at a port where nothing listens: every API call is refused. */
let cut: Replica;

const TIMEOUT_MS = 500;
const SLOW_MS = TIMEOUT_MS + 700;

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  fake = await startFakeTelegram();
  api = await new StubApi(INTERNAL_SECRET).start();
  bot = await startReplica({
    telegram: fake,
    apiUrl: api.url,
    apiTimeouts: { settings: TIMEOUT_MS, other: TIMEOUT_MS },
  });
  cut = await startReplica({
    telegram: fake,
    apiUrl: `http://127.0.0.1:${await closedPort()}`,
  });
});

afterAll(async () => {
  await bot.close();
  await cut.close();
  await api.close();
  await fake.close();
});

beforeEach(() => {
  api.down = false;
  api.overrides.splice(0);
  api.searchResults = [
    {
      tmdbId: 438631,
      mediaType: 'movie',
      title: 'Dune',
      originalTitle: 'Dune',
      year: 2021,
      overview: 'Paul Atreides travels to the most dangerous planet.',
      posterPath: '/dune.jpg',
      voteAverage: 7.8,
    },
  ];
});

afterEach(() => expect(api.violations).toEqual([]));

type User = ReturnType<typeof tgUser>;
const plain = (html: string) => html.replace(/<[^>]*>/g, '');
const text = (chatId: number) => lastMessage(fake, chatId).text ?? '';
const unavailable = (lang: Lang) => t(lang, 'common.unavailable');
const dataOf = (m: TgMessage, label: string) =>
  m.reply_markup!.inline_keyboard.flat().find((b) => b.text === label)!.callback_data!;

const slow = (method: string, path: RegExp) =>
  api.override(method, path, async (c) => {
    await new Promise((r) => setTimeout(r, SLOW_MS));
    return c.json({ error: { code: 'TOO_LATE', message: 'x', requestId: 'r' } }, 400);
  });

/**
 * One row per command: what the user sends, the route that fails when only that call is slow,
 * what the stub needs for the command to succeed, and how success reads.
 */
interface CommandCase {
  command: 'bind' | 'redeem' | 'resetpw' | 'search';
  lang: Lang;
  slowRoute: [string, RegExp];
  prepare(user: User): string;
  success(lang: Lang, user: User): string;
}

const cases: CommandCase[] = [
  {
    command: 'bind',
    lang: 'zh-CN',
    slowRoute: ['POST', /messenger\/bind$/],
    prepare: (user) => {
      const code = String(100000 + (user.id % 900000));
      api.bindCodes.set(code, {
        userId: randomUUID(),
        username: `member${user.id}`,
        email: null,
        isActive: true,
        expiresAt: null,
        isExpired: false,
        mediaLinked: true,
      });
      return code;
    },
    success: (lang, user) => plain(t(lang, 'bind.ok', { username: `member${user.id}` })),
  },
  {
    command: 'redeem',
    lang: 'en',
    slowRoute: ['POST', /messenger\/redeem$/],
    prepare: (user) => {
      api.addAccount(user.id);
      const code = `CODE-${user.id}`;
      api.redeemCodes.set(code, { days: 30, state: 'ok', usedBy: new Set() });
      return code;
    },
    success: (lang) => plain(t(lang, 'redeem.ok', { days: 30, expiresAt: '2027-03-02 08:30' })),
  },
  {
    command: 'resetpw',
    lang: 'zh-CN',
    slowRoute: ['POST', /messenger\/lookup$/],
    prepare: (user) => {
      api.addAccount(user.id);
      return '';
    },
    success: (lang) => plain(t(lang, 'resetpw.confirm')),
  },
  {
    command: 'search',
    lang: 'en',
    // A GET: the client tries twice before it gives up.
    slowRoute: ['GET', /metadata\/search$/],
    prepare: (user) => {
      api.addAccount(user.id);
      return 'Dune';
    },
    success: (lang) => plain(t(lang, 'search.list', { query: 'Dune' })),
  },
];

const languageCode = (lang: Lang) => (lang === 'zh-CN' ? 'zh-hans' : 'en');
let nextId = 9100;
const newUser = (lang: Lang) => tgUser({ id: nextId++, language_code: languageCode(lang) });
const send = (replica: Replica, user: User, command: string, args: string) =>
  pushTo(fake, replica, commandMessage({ from: user, command, ...(args ? { args } : {}) }));

describe.each(cases)('/$command', (c) => {
  it('should reply politely while the API answers 503, then serve the next update', async () => {
    const user = newUser(c.lang);
    const args = c.prepare(user);
    api.down = true;
    await send(bot, user, c.command, args);
    expect(text(user.id)).toBe(unavailable(c.lang));
    api.down = false;
    await send(bot, user, c.command, args);
    expect(text(user.id)).toContain(c.success(c.lang, user));
  });

  it('should reply politely when the API cannot be reached at all, and keep serving', async () => {
    const user = newUser(c.lang);
    const args = c.prepare(user);
    await send(cut, user, c.command, args);
    expect(text(user.id)).toBe(unavailable(c.lang));
    // The same replica goes on with the next update (one that needs no API).
    await send(cut, user, 'help', '');
    expect(text(user.id)).toBe(plain(t(c.lang, 'help.body')));
    const line = cut.logs.lines.find(
      (l) => l.msg === 'update' && l.fromId === user.id && l.command === c.command,
    );
    expect(line).toMatchObject({ outcome: 'ok' });
  });

  it('should reply politely when the API call times out, then serve the next update', async () => {
    const user = newUser(c.lang);
    const args = c.prepare(user);
    slow(...c.slowRoute);
    const started = Date.now();
    await send(bot, user, c.command, args);
    expect(text(user.id)).toBe(unavailable(c.lang));
    expect(Date.now() - started).toBeLessThan(5000);
    api.overrides.splice(0);
    await send(bot, user, c.command, args);
    expect(text(user.id)).toContain(c.success(c.lang, user));
  });
});

describe('a dialogue whose next step meets a slow API', () => {
  const press = async (user: User, message: TgMessage, data: string) => {
    await pushTo(fake, bot, callbackQuery({ from: user, message, data }));
    return fake.callsTo('answerCallbackQuery').at(-1)!;
  };

  it('should answer the reset button and say unavailable when the reset times out', async () => {
    const user = newUser('en');
    api.addAccount(user.id);
    await send(bot, user, 'resetpw', '');
    const confirm = lastMessage(fake, user.id);
    slow('POST', /messenger\/reset-password$/);
    const answered = await press(user, confirm, dataOf(confirm, 'Reset now'));
    expect(answered.status).toBe(200);
    const edited = fake.state.findMessage(user.id, confirm.message_id)!.message;
    expect(edited.text).toBe(unavailable('en'));
    expect(edited.reply_markup).toBeUndefined();
    // The next command works.
    api.overrides.splice(0);
    await send(bot, user, 'resetpw', '');
    expect(text(user.id)).toBe(plain(t('en', 'resetpw.confirm')));
  });

  it('should keep the confirm buttons when creating the request times out, and succeed on the retry', async () => {
    const user = newUser('zh-CN');
    api.addAccount(user.id);
    await send(bot, user, 'search', 'Dune');
    const list = lastMessage(fake, user.id);
    await press(user, list, dataOf(list, '1'));
    const card = lastMessage(fake, user.id);
    const request = dataOf(card, t('zh-CN', 'button.request'));
    slow('POST', /internal\/media-requests$/);
    const answered = await press(user, card, request);
    expect(answered.status).toBe(200);
    expect(text(user.id)).toBe(unavailable('zh-CN'));
    expect(fake.state.findMessage(user.id, card.message_id)!.message.reply_markup).toBeDefined();
    api.overrides.splice(0);
    await press(user, card, request);
    expect(fake.state.findMessage(user.id, card.message_id)!.message.text).toBe(
      plain(t('zh-CN', 'search.created', { title: 'Dune', season: '' })),
    );
  });
});
