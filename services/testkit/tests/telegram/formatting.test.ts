import {
  privateChat,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
  type TgMessage,
} from '../../src/telegram/index.js';
import { call, ok } from './helpers.js';

const alice = tgUser({ id: 1001, first_name: 'Alice' });

describe('fake Telegram HTML formatting', () => {
  let fake: FakeTelegram;

  beforeEach(async () => {
    fake = await startFakeTelegram();
    fake.seedChat(privateChat(alice));
  });
  afterEach(() => fake.close());

  it('should parse HTML into text with UTF-16 entities and per-chat message ids', async () => {
    const first = await ok<TgMessage>(fake, 'sendMessage', {
      chat_id: 1001,
      text: '<b>Hi</b> 🎬 <a href="https://example.org">&lt;link&gt;</a>',
      parse_mode: 'HTML',
    });
    const second = await ok<TgMessage>(fake, 'sendMessage', { chat_id: 1001, text: 'again' });

    expect(first.text).toBe('Hi 🎬 <link>');
    expect(first.entities).toEqual([
      { type: 'bold', offset: 0, length: 2 },
      { type: 'text_link', offset: 6, length: 6, url: 'https://example.org' },
    ]);
    expect(first.from?.is_bot).toBe(true);
    expect([first.message_id, second.message_id]).toEqual([1, 2]);
    expect(fake.messages(1001).map((m) => m.text)).toEqual(['Hi 🎬 <link>', 'again']);
  });

  it('should keep unknown named entities as literal text', async () => {
    const message = await ok<TgMessage>(fake, 'sendMessage', {
      chat_id: 1001,
      text: 'a &nbsp; b &#65; &amp;',
      parse_mode: 'HTML',
    });

    expect(message.text).toBe('a &nbsp; b A &');
  });

  it('should measure the 4096 limit after entity parsing', async () => {
    const fits = `<b>${'x'.repeat(4096)}</b>`;
    const tooLong = 'y'.repeat(4097);

    const accepted = await call(fake, 'sendMessage', {
      chat_id: 1001,
      text: fits,
      parse_mode: 'HTML',
    });
    const refused = await call(fake, 'sendMessage', { chat_id: 1001, text: tooLong });

    expect(accepted.body.ok).toBe(true);
    expect(refused.body.description).toBe('Bad Request: message is too long');
  });

  it('should refuse an unsupported parse_mode', async () => {
    const reply = await call(fake, 'sendMessage', {
      chat_id: 1001,
      text: 'x',
      parse_mode: 'BBCode',
    });

    expect(reply.body.description).toBe('Bad Request: unsupported parse_mode');
  });

  it('should map spoiler, pre with language and expandable blockquote to entities', async () => {
    const message = await ok<TgMessage>(fake, 'sendMessage', {
      chat_id: 1001,
      text:
        '<tg-spoiler>pw</tg-spoiler> <pre><code class="language-ts">x</code></pre> ' +
        '<blockquote expandable>q</blockquote>',
      parse_mode: 'HTML',
    });

    expect(message.text).toBe('pw x q');
    expect(message.entities).toEqual([
      { type: 'spoiler', offset: 0, length: 2 },
      { type: 'pre', offset: 3, length: 1, language: 'ts' },
      { type: 'expandable_blockquote', offset: 5, length: 1 },
    ]);
  });
});
