import {
  callbackQuery,
  groupChat,
  newChatMembers,
  privateChat,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
  type TgMessage,
} from '../../src/telegram/index.js';
import { call, ok } from './helpers.js';

const alice = tgUser({ id: 1001, first_name: 'Alice' });
const admin = tgUser({ id: 2002, first_name: 'Ada' });

describe('fake Telegram callbacks, commands and members', () => {
  let fake: FakeTelegram;
  let clock = 1_700_000_000_000;

  beforeEach(async () => {
    clock = 1_700_000_000_000;
    fake = await startFakeTelegram({ now: () => clock });
    fake.seedChat(privateChat(alice));
  });
  afterEach(() => fake.close());

  async function pressButton(data: string) {
    const card = await ok<TgMessage>(fake, 'sendMessage', {
      chat_id: 1001,
      text: 'card',
      reply_markup: { inline_keyboard: [[{ text: 'OK', callback_data: data }]] },
    });
    return fake.queueUpdate(callbackQuery({ from: alice, message: card, data })).callback_query!;
  }

  it('should accept exactly one answer per callback query', async () => {
    const query = await pressButton('ap:1');

    const first = await call(fake, 'answerCallbackQuery', {
      callback_query_id: query.id,
      text: 'Done',
    });
    const second = await call(fake, 'answerCallbackQuery', { callback_query_id: query.id });

    expect(first.body).toEqual({ ok: true, result: true });
    expect(second.body.description).toBe(
      'Bad Request: query is too old and response timeout expired or query ID is invalid',
    );
    expect(fake.state.callbackQueries.get(query.id)?.answer).toEqual(
      expect.objectContaining({ text: 'Done' }),
    );
  });

  it('should refuse an answer to a timed-out or unknown callback query', async () => {
    const query = await pressButton('ap:2');
    clock += 16_000;

    const late = await call(fake, 'answerCallbackQuery', { callback_query_id: query.id });
    const unknown = await call(fake, 'answerCallbackQuery', { callback_query_id: '123' });

    expect(late.body.error_code).toBe(400);
    expect(late.body.description).toMatch(/query is too old/);
    expect(unknown.body.description).toMatch(/query ID is invalid/);
  });

  it('should refuse a callback answer text over 200 characters', async () => {
    const query = await pressButton('ap:3');

    const reply = await call(fake, 'answerCallbackQuery', {
      callback_query_id: query.id,
      text: 'x'.repeat(201),
    });

    expect(reply.body.description).toBe('Bad Request: MESSAGE_TOO_LONG');
    expect(fake.state.callbackQueries.get(query.id)?.answered).toBe(false);
  });

  it('should store commands per scope and language, validating names', async () => {
    const scope = { type: 'all_private_chats' };
    await ok(fake, 'setMyCommands', {
      commands: [{ command: 'search', description: 'Request a title' }],
      scope,
      language_code: 'zh',
    });

    const zh = await ok(fake, 'getMyCommands', { scope, language_code: 'zh' });
    const en = await ok(fake, 'getMyCommands', { scope, language_code: 'en' });
    const bad = await call(fake, 'setMyCommands', {
      commands: [{ command: 'Search', description: 'x' }],
    });
    const badScope = await call(fake, 'setMyCommands', {
      commands: [],
      scope: { type: 'everyone' },
    });

    expect(zh).toEqual([{ command: 'search', description: 'Request a title' }]);
    expect(en).toEqual([]);
    expect(bad.body.description).toBe('Bad Request: BOT_COMMAND_INVALID');
    expect(badScope.body.description).toBe('Bad Request: unsupported bot command scope type');
  });

  it('should delete commands of a chat scope and refuse an unknown chat in the scope', async () => {
    const group = groupChat(-300, 'Fans');
    fake.seedChat(group);
    const scope = { type: 'chat', chat_id: -300 };
    await ok(fake, 'setMyCommands', {
      commands: [{ command: 'help', description: 'Help' }],
      scope,
    });

    await ok(fake, 'deleteMyCommands', { scope });
    const left = await ok(fake, 'getMyCommands', { scope });
    const unknown = await call(fake, 'deleteMyCommands', { scope: { type: 'chat', chat_id: -9 } });

    expect(left).toEqual([]);
    expect(unknown.body.description).toBe('Bad Request: chat not found');
  });

  it('should report seeded member statuses and "left" for known non-members', async () => {
    const group = groupChat(-400, 'Admins');
    fake.seedChat(group);
    fake.setMember(-400, admin, 'administrator');
    fake.seedUser(tgUser({ id: 3003 }));

    const adminMember = await ok(fake, 'getChatMember', { chat_id: -400, user_id: 2002 });
    const stranger = await ok(fake, 'getChatMember', { chat_id: -400, user_id: 3003 });
    const unknown = await call(fake, 'getChatMember', { chat_id: -400, user_id: 9999 });

    expect(adminMember).toEqual(
      expect.objectContaining({ status: 'administrator', user: admin, can_manage_chat: true }),
    );
    expect(stranger).toEqual({ status: 'left', user: expect.objectContaining({ id: 3003 }) });
    expect(unknown.body.description).toBe('Bad Request: user not found');
  });

  it('should add joining people as members and refuse a group that kicked the bot', async () => {
    const group = groupChat(-600, 'Club');
    fake.queueUpdate(newChatMembers({ chat: group, from: alice, members: [admin] }));

    const joined = await ok(fake, 'getChatMember', { chat_id: -600, user_id: 2002 });
    fake.setMember(-600, fake.bot.id, 'kicked');
    const kicked = await call(fake, 'sendMessage', { chat_id: -600, text: 'hello' });

    expect(joined).toEqual(expect.objectContaining({ status: 'member' }));
    expect(kicked.body).toEqual({
      ok: false,
      error_code: 403,
      description: 'Forbidden: bot was kicked from the group chat',
    });
  });

  it('should offer the /__fake control API over HTTP', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${fake.url}/__fake${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/blocked', { user_id: 1001 });
    await post('/next-error', { method: 'getMe', error_code: 500, description: 'Internal' });

    const blocked = await call(fake, 'sendMessage', { chat_id: 1001, text: 'x' });
    const getMe = await call(fake, 'getMe');
    const calls = (await (await fetch(`${fake.url}/__fake/calls`)).json()) as unknown[];

    expect(blocked.status).toBe(403);
    expect(getMe.body).toEqual({ ok: false, error_code: 500, description: 'Internal' });
    expect(calls).toHaveLength(2);
  });
});
