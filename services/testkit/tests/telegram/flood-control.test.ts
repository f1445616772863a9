// The fake's flood control (`rateLimits`): Telegram's limits on sending — about 30 messages a
// second across chats and one a second per chat — answered with 429 and `retry_after`, as
// Telegram does, so a sender's pacing can be checked against the fake.
import {
  privateChat,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
} from '../../src/telegram/index.js';
import { call } from './helpers.js';

describe('fake Telegram flood control', () => {
  let fake: FakeTelegram;
  let clock = 1_000_000;
  const chats = Array.from({ length: 40 }, (_, i) => 2000 + i);

  beforeEach(async () => {
    clock = 1_000_000;
    fake = await startFakeTelegram({
      now: () => clock,
      rateLimits: { globalPerSecond: 30, perChatPerSecond: 1 },
    });
    for (const id of chats) fake.seedChat(privateChat(tgUser({ id, first_name: `U${id}` })));
  });
  afterEach(() => fake.close());

  const send = (chatId: number) => call(fake, 'sendMessage', { chat_id: chatId, text: 'hi' });

  it('should refuse a second message to one chat within a second, and allow it after', async () => {
    expect((await send(2000)).status).toBe(200);
    clock += 400;
    const refused = await send(2000);
    expect(refused).toEqual({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 1',
        parameters: { retry_after: 1 },
      },
    });
    expect((await send(2001)).status).toBe(200); // another chat is not held back
    clock += 600;
    expect((await send(2000)).status).toBe(200);
    // The refused message was not delivered.
    expect(fake.messages(2000)).toHaveLength(2);
  });

  it('should refuse the 31st message in a second across chats', async () => {
    for (const id of chats.slice(0, 30)) expect((await send(id)).status).toBe(200);
    const refused = await send(chats[30]!);
    expect(refused.status).toBe(429);
    expect(refused.body.parameters).toEqual({ retry_after: 1 });
    clock += 1000;
    expect((await send(chats[30]!)).status).toBe(200);
  });

  it('should not count reads, and should be off unless asked for', async () => {
    for (let i = 0; i < 40; i += 1) expect((await call(fake, 'getMe')).status).toBe(200);
    const free = await startFakeTelegram({ now: () => clock });
    free.seedChat(privateChat(tgUser({ id: 3000, first_name: 'Free' })));
    try {
      for (let i = 0; i < 5; i += 1) {
        const reply = await call(free, 'sendMessage', { chat_id: 3000, text: 'x' });
        expect(reply.status).toBe(200);
      }
    } finally {
      await free.close();
    }
  });
});
