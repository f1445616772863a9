// telegraf 4.16.3 (the bot's real client) against the fake Bot API: direct calls, errors as
// telegraf surfaces them, a bot in polling mode and one behind a webhook. Where telegraf and the
// fake disagree, the fake is wrong.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Markup, Telegraf, TelegramError } from 'telegraf';

import {
  callbackQuery,
  commandMessage,
  privateChat,
  startFakeTelegram,
  tgUser,
} from '../../src/telegram/index.js';
import type { FakeTelegram, TgMessage } from '../../src/telegram/index.js';
import { eventually } from '../../src/support/index.js';

const alice = tgUser({ id: 1001, first_name: 'Alice', username: 'alice' });

/** The first defined value of `probe`. */
const until = <T>(probe: () => T | undefined): Promise<T> =>
  eventually(() => {
    const value = probe();
    expect(value).toBeDefined();
    return value as T;
  });

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

describe('telegram fake: telegraf as the client', () => {
  let fake: FakeTelegram;
  let bot: Telegraf;

  beforeEach(async () => {
    fake = await startFakeTelegram();
    fake.seedChat(privateChat(alice));
    // webhookReply off: replies must be real API calls the fake can record (spec 50 §8 #17).
    bot = new Telegraf(fake.token, { telegram: { apiRoot: fake.url, webhookReply: false } });
  });
  afterEach(() => fake.close());

  it('should read the bot profile with getMe', async () => {
    const me = await bot.telegram.getMe();
    expect(me).toMatchObject({ id: fake.bot.id, is_bot: true, username: fake.bot.username });
  });

  it('should send, edit and delete a message with an inline keyboard', async () => {
    const keyboard = Markup.inlineKeyboard([Markup.button.callback('Approve', 'approve:42')]);
    const sent = await bot.telegram.sendMessage(alice.id, '<b>New request</b>', {
      parse_mode: 'HTML',
      ...keyboard,
    });
    expect(sent.text).toBe('New request');
    expect(sent.entities).toEqual([{ type: 'bold', offset: 0, length: 11 }]);
    expect(fake.messages(alice.id).map((m) => m.message_id)).toEqual([sent.message_id]);

    const edited = await bot.telegram.editMessageText(alice.id, sent.message_id, undefined, 'Done');
    expect(edited).toMatchObject({ message_id: sent.message_id, text: 'Done' });
    await bot.telegram.deleteMessage(alice.id, sent.message_id);
    expect(fake.messages(alice.id)).toEqual([]);
  });

  it('should send a photo by URL with a caption', async () => {
    const photo = await bot.telegram.sendPhoto(alice.id, 'https://image.example/poster.jpg', {
      caption: 'Dune: Part Two',
    });
    expect(photo.caption).toBe('Dune: Part Two');
    expect(photo.photo.length).toBeGreaterThan(0);
  });

  it('should store commands per scope and read them back', async () => {
    const commands = [{ command: 'start', description: 'Link your account' }];
    await bot.telegram.setMyCommands(commands, { scope: { type: 'all_private_chats' } });
    expect(await bot.telegram.getMyCommands({ scope: { type: 'all_private_chats' } })).toEqual(
      commands,
    );
    expect(await bot.telegram.getMyCommands()).toEqual([]);
  });

  it('should surface API errors as TelegramError with code and description', async () => {
    const missing = await failureOf(bot.telegram.sendMessage(-42, 'hello'));
    expect(missing).toBeInstanceOf(TelegramError);
    expect((missing as TelegramError).code).toBe(400);
    expect((missing as TelegramError).description).toBe('Bad Request: chat not found');

    const html = await failureOf(
      bot.telegram.sendMessage(alice.id, '<b>open', { parse_mode: 'HTML' }),
    );
    expect((html as TelegramError).description).toMatch(/^Bad Request: can't parse entities/);

    fake.block(alice.id);
    const blocked = await failureOf(bot.telegram.sendMessage(alice.id, 'hi'));
    expect((blocked as TelegramError).code).toBe(403);
  });

  it('should give telegraf retry_after on 429', async () => {
    fake.flood(7, ['sendMessage']);
    const flooded = await failureOf(bot.telegram.sendMessage(alice.id, 'hi'));
    expect((flooded as TelegramError).code).toBe(429);
    expect((flooded as TelegramError).parameters?.retry_after).toBe(7);
  });

  it('should refuse a wrong token with 401', async () => {
    const stranger = new Telegraf('123:wrong', { telegram: { apiRoot: fake.url } });
    const failure = await failureOf(stranger.telegram.getMe());
    expect((failure as TelegramError).code).toBe(401);
  });

  it('should feed a polling bot queued updates and record its replies', async () => {
    bot.start((ctx) => ctx.reply(`Welcome, ${ctx.from.first_name}`));
    bot.action(/^approve:(\d+)$/, async (ctx) => {
      await ctx.answerCbQuery(`Approved #${ctx.match[1]}`);
      await ctx.editMessageReplyMarkup(undefined);
    });
    let launched = false;
    const running = bot.launch({ dropPendingUpdates: false }, () => {
      launched = true;
    });
    await until(() => (launched ? true : undefined));

    fake.queueUpdate(commandMessage({ from: alice, command: 'start' }));
    const welcome = await until(() => fake.callsTo('sendMessage')[0]);
    expect(welcome.params).toMatchObject({ chat_id: alice.id, text: 'Welcome, Alice' });

    const prompt = await bot.telegram.sendMessage(
      alice.id,
      'Request #42',
      Markup.inlineKeyboard([Markup.button.callback('Approve', 'approve:42')]),
    );
    fake.queueUpdate(
      callbackQuery({ from: alice, message: prompt as TgMessage, data: 'approve:42' }),
    );
    const answer = await until(() => fake.callsTo('answerCallbackQuery')[0]);
    expect(answer).toMatchObject({ status: 200, params: { text: 'Approved #42' } });
    const cleared = await until(() => fake.callsTo('editMessageReplyMarkup')[0]);
    expect(cleared.status).toBe(200);

    bot.stop('test over');
    await running;
    // launch() clears any webhook first, as the bot's polling mode relies on.
    expect(fake.callsTo('deleteWebhook')).toHaveLength(1);
    // The aborted long poll must not linger: a new poll is not a 409 "other getUpdates" conflict.
    expect(await bot.telegram.getUpdates(0, 100, 0, undefined)).toEqual([]);
  });

  it('should deliver pushed updates to a telegraf webhook with the secret token', async () => {
    const secretToken = 'usher-webhook-secret_1';
    bot.command('help', (ctx) => ctx.reply('Try /start'));
    const server: Server = createServer(bot.webhookCallback('/messenger/webhook', { secretToken }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      await bot.telegram.setWebhook(`http://127.0.0.1:${port}/messenger/webhook`, {
        secret_token: secretToken,
      });
      expect((await bot.telegram.getWebhookInfo()).url).toContain('/messenger/webhook');

      const { deliveries } = await fake.pushUpdate(
        commandMessage({ from: alice, command: 'help' }),
      );
      expect(deliveries.map((d) => d.status)).toEqual([200]);
      const reply = await until(() => fake.callsTo('sendMessage')[0]);
      expect(reply.params).toMatchObject({ chat_id: alice.id, text: 'Try /start' });

      await bot.telegram.setWebhook(`http://127.0.0.1:${port}/messenger/webhook`, {
        secret_token: 'a-different-secret',
      });
      const refused = await fake.pushUpdate(commandMessage({ from: alice, command: 'help' }));
      // telegraf answers 403 to a wrong secret; the update stays pending, as on Telegram.
      expect(refused.deliveries.map((d) => d.status)).toEqual([403]);
      expect(fake.callsTo('sendMessage')).toHaveLength(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
