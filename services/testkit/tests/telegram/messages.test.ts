import {
  groupChat,
  privateChat,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
  type TgMessage,
} from '../../src/telegram/index.js';
import { startFakeTmdb } from '../../src/tmdb/index.js';
import { call, ok } from './helpers.js';

const alice = tgUser({ id: 1001, first_name: 'Alice' });
const bob = tgUser({ id: 1002, first_name: 'Bob' });
const keyboard = (data: string) => ({
  inline_keyboard: [[{ text: 'Press', callback_data: data }]],
});

describe('fake Telegram sending and validation', () => {
  let fake: FakeTelegram;

  beforeEach(async () => {
    fake = await startFakeTelegram();
    fake.seedChat(privateChat(alice));
  });
  afterEach(() => fake.close());

  it.each([
    ['<b>open', 'Can\'t find end tag corresponding to start tag "b"'],
    ['<b>x</i>', 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'],
    ['a < b', 'Unsupported start tag "" at byte offset 2'],
    ['<br>', 'Unsupported start tag "br" at byte offset 0'],
    ['é</b>', 'Unexpected end tag at byte offset 2'],
    ['<span>x</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'],
  ])('should refuse bad HTML %j like tdlib', async (text, reason) => {
    const reply = await call(fake, 'sendMessage', { chat_id: 1001, text, parse_mode: 'HTML' });

    expect(reply).toEqual({
      status: 400,
      body: {
        ok: false,
        error_code: 400,
        description: `Bad Request: can't parse entities: ${reason}`,
      },
    });
  });

  it('should refuse empty text, including text that is empty after parsing', async () => {
    const missing = await call(fake, 'sendMessage', { chat_id: 1001 });
    const blank = await call(fake, 'sendMessage', {
      chat_id: 1001,
      text: '<b> </b>',
      parse_mode: 'HTML',
    });

    expect(missing.body.description).toBe('Bad Request: message text is empty');
    expect(blank.body.description).toBe('Bad Request: message text is empty');
  });

  it('should refuse unknown chats, users who never started the bot and blocked users', async () => {
    fake.seedUser(bob);
    fake.block(1001);

    const unknown = await call(fake, 'sendMessage', { chat_id: 999, text: 'x' });
    const notStarted = await call(fake, 'sendMessage', { chat_id: 1002, text: 'x' });
    const blocked = await call(fake, 'sendMessage', { chat_id: 1001, text: 'x' });

    expect(unknown.body).toEqual({
      ok: false,
      error_code: 400,
      description: 'Bad Request: chat not found',
    });
    expect(notStarted.body.description).toBe(
      "Forbidden: bot can't initiate conversation with a user",
    );
    expect(blocked).toEqual({
      status: 403,
      body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
    });
  });

  it('should count callback_data in UTF-8 bytes and refuse more than 64', async () => {
    const atLimit = 'a'.repeat(64);
    const overInBytes = 'é'.repeat(33);

    const accepted = await call(fake, 'sendMessage', {
      chat_id: 1001,
      text: 'x',
      reply_markup: keyboard(atLimit),
    });
    const refused = await call(fake, 'sendMessage', {
      chat_id: 1001,
      text: 'x',
      reply_markup: keyboard(overInBytes),
    });

    expect(accepted.body.ok).toBe(true);
    expect(refused.body).toEqual({
      ok: false,
      error_code: 400,
      description: 'Bad Request: BUTTON_DATA_INVALID',
    });
  });

  it('should limit photo captions to 1024 characters after parsing', async () => {
    const photo = 'https://image.tmdb.org/t/p/w500/poster.jpg';
    const fits = await call(fake, 'sendPhoto', {
      chat_id: 1001,
      photo,
      caption: `<i>${'c'.repeat(1024)}</i>`,
      parse_mode: 'HTML',
    });
    const tooLong = await call(fake, 'sendPhoto', {
      chat_id: 1001,
      photo,
      caption: 'c'.repeat(1025),
    });
    const noPhoto = await call(fake, 'sendPhoto', { chat_id: 1001, caption: 'x' });

    expect(fits.body.ok).toBe(true);
    expect(tooLong.body.description).toBe('Bad Request: message caption is too long');
    expect(noPhoto.body.description).toBe('Bad Request: there is no photo in the request');
  });

  it('should edit text, and answer "message is not modified" for an identical edit', async () => {
    const sent = await ok<TgMessage>(fake, 'sendMessage', {
      chat_id: 1001,
      text: 'v1',
      reply_markup: keyboard('a'),
    });
    const params = {
      chat_id: 1001,
      message_id: sent.message_id,
      text: 'v2',
      reply_markup: keyboard('a'),
    };

    const edited = await ok<TgMessage>(fake, 'editMessageText', params);
    const again = await call(fake, 'editMessageText', params);

    expect(edited).toEqual(expect.objectContaining({ text: 'v2', reply_markup: keyboard('a') }));
    expect(typeof edited.edit_date).toBe('number');
    expect(again.body.description).toMatch(/^Bad Request: message is not modified/);
  });

  it('should drop the keyboard when an edit leaves out reply_markup', async () => {
    const sent = await ok<TgMessage>(fake, 'sendMessage', {
      chat_id: 1001,
      text: 'v1',
      reply_markup: keyboard('a'),
    });

    const edited = await ok<TgMessage>(fake, 'editMessageText', {
      chat_id: 1001,
      message_id: sent.message_id,
      text: 'v1',
    });

    expect(edited.reply_markup).toBeUndefined();
  });

  it('should refuse edits of missing, caption-less and user messages', async () => {
    const text = await ok<TgMessage>(fake, 'sendMessage', { chat_id: 1001, text: 'plain' });
    const userMessage = fake.queueUpdate({
      message: { message_id: 0, chat: privateChat(alice), from: alice, date: 1, text: 'hey' },
    });

    const missing = await call(fake, 'editMessageText', {
      chat_id: 1001,
      message_id: 77,
      text: 'x',
    });
    const caption = await call(fake, 'editMessageCaption', {
      chat_id: 1001,
      message_id: text.message_id,
      caption: 'c',
    });
    const foreign = await call(fake, 'editMessageText', {
      chat_id: 1001,
      message_id: userMessage.message!.message_id,
      text: 'x',
    });

    expect(missing.body.description).toBe('Bad Request: message to edit not found');
    expect(caption.body.description).toBe(
      'Bad Request: there is no caption in the message to edit',
    );
    expect(foreign.body.description).toBe("Bad Request: message can't be edited");
  });

  it('should edit a photo caption and the reply markup of a message', async () => {
    const photo = await ok<TgMessage>(fake, 'sendPhoto', {
      chat_id: 1001,
      photo: 'https://x.org/p.jpg',
      caption: 'old',
      reply_markup: keyboard('a'),
    });

    const caption = await ok<TgMessage>(fake, 'editMessageCaption', {
      chat_id: 1001,
      message_id: photo.message_id,
      caption: 'new',
    });
    const markup = await ok<TgMessage>(fake, 'editMessageReplyMarkup', {
      chat_id: 1001,
      message_id: photo.message_id,
      reply_markup: keyboard('b'),
    });
    const same = await call(fake, 'editMessageReplyMarkup', {
      chat_id: 1001,
      message_id: photo.message_id,
      reply_markup: keyboard('b'),
    });

    expect(caption.caption).toBe('new');
    expect(markup.reply_markup).toEqual(keyboard('b'));
    expect(same.body.description).toMatch(/message is not modified/);
  });

  it('should delete a message once and then report it missing', async () => {
    const sent = await ok<TgMessage>(fake, 'sendMessage', { chat_id: 1001, text: 'bye' });

    const first = await call(fake, 'deleteMessage', { chat_id: 1001, message_id: sent.message_id });
    const second = await call(fake, 'deleteMessage', {
      chat_id: 1001,
      message_id: sent.message_id,
    });

    expect(first.body).toEqual({ ok: true, result: true });
    expect(second.body.description).toBe('Bad Request: message to delete not found');
    expect(fake.messages(1001)).toEqual([]);
  });

  it("should refuse to delete others' group messages unless the bot is admin", async () => {
    const group = groupChat(-500, 'Fans');
    const joined = fake.queueUpdate({
      message: { message_id: 0, chat: group, from: bob, date: 1, text: 'spam' },
    });
    const id = joined.message!.message_id;

    const refused = await call(fake, 'deleteMessage', { chat_id: -500, message_id: id });
    fake.setMember(-500, fake.bot.id, 'administrator');
    const allowed = await call(fake, 'deleteMessage', { chat_id: -500, message_id: id });

    expect(refused.body.description).toBe("Bad Request: message can't be deleted");
    expect(allowed.body.ok).toBe(true);
  });

  it('should refuse a reply to a message that does not exist', async () => {
    const reply = await call(fake, 'sendMessage', {
      chat_id: 1001,
      text: 'x',
      reply_parameters: { message_id: 55 },
    });

    expect(reply.body.description).toBe('Bad Request: message to be replied not found');
  });

  it('should download photo URLs when fetchPhotos is on and refuse non-images', async () => {
    const tmdb = await startFakeTmdb();
    const fetching = await startFakeTelegram({ fetchPhotos: true });
    fetching.seedChat(privateChat(alice));
    const poster = `${tmdb.imageBase}/w500/poster-438631.jpg`;
    const json = `${tmdb.apiBase}/movie/438631?api_key=${tmdb.apiKey}`;

    const image = await call(fetching, 'sendPhoto', { chat_id: 1001, photo: poster });
    const page = await call(fetching, 'sendPhoto', { chat_id: 1001, photo: json });
    const missing = await call(fetching, 'sendPhoto', { chat_id: 1001, photo: `${poster}x` });
    await fetching.close();
    await tmdb.close();

    expect(image.body.ok).toBe(true);
    expect(page.body.description).toBe('Bad Request: wrong type of the web page content');
    expect(missing.body.description).toBe('Bad Request: failed to get HTTP URL content');
  });
});
