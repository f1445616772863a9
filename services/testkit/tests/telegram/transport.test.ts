import {
  privateChat,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
} from '../../src/telegram/index.js';
import { call } from './helpers.js';

describe('fake Telegram transport and auth', () => {
  let fake: FakeTelegram;
  const alice = tgUser({ id: 1001, first_name: 'Alice', username: 'alice' });

  beforeEach(async () => {
    fake = await startFakeTelegram();
    fake.seedChat(privateChat(alice));
  });
  afterEach(() => fake.close());

  it('should answer getMe with the bot profile telegraf needs', async () => {
    const reply = await call(fake, 'getMe');

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      ok: true,
      result: expect.objectContaining({
        id: 7000000001,
        is_bot: true,
        username: 'usher_test_bot',
        can_join_groups: true,
        can_read_all_group_messages: false,
      }),
    });
  });

  it('should refuse an unknown token with 401 Unauthorized', async () => {
    const reply = await call(fake, 'getMe', {}, { token: '123:wrong' });

    expect(reply).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: 'Unauthorized' },
    });
  });

  it('should answer 404 Not Found for an unknown method or path', async () => {
    const unknown = await call(fake, 'sendHologram');
    const bare = await fetch(`${fake.url}/nothing`);

    expect(unknown).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: 'Not Found' },
    });
    expect(bare.status).toBe(404);
  });

  it('should accept method names in any letter case, as the real API does', async () => {
    const reply = await call(fake, 'GETME');

    expect(reply.body.ok).toBe(true);
    expect(fake.calls.at(-1)?.method).toBe('getMe');
  });

  it('should read parameters from a GET query string', async () => {
    const response = await fetch(
      `${fake.url}/bot${fake.token}/sendMessage?chat_id=1001&text=${encodeURIComponent('hi')}`,
    );
    const body = (await response.json()) as { result: { text: string; chat: { id: number } } };

    expect(response.status).toBe(200);
    expect(body.result.text).toBe('hi');
    expect(body.result.chat.id).toBe(1001);
  });

  it('should read a form-urlencoded body with reply_markup as a JSON string', async () => {
    const markup = JSON.stringify({ inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] });
    const response = await fetch(`${fake.url}/bot${fake.token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ chat_id: '1001', text: 'pick', reply_markup: markup }),
    });
    const body = (await response.json()) as { result: { reply_markup: unknown } };

    expect(body.result.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]],
    });
  });

  it('should read a multipart body, including an uploaded photo file', async () => {
    const form = new FormData();
    form.set('chat_id', '1001');
    form.set('caption', '<b>Poster</b>');
    form.set('parse_mode', 'HTML');
    form.set('photo', new Blob([Buffer.from([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }), 'p.jpg');
    const response = await fetch(`${fake.url}/bot${fake.token}/sendPhoto`, {
      method: 'POST',
      body: form,
    });
    const body = (await response.json()) as { result: Record<string, unknown> };

    expect(response.status).toBe(200);
    expect(body.result.caption).toBe('Poster');
    expect(body.result.caption_entities).toEqual([{ type: 'bold', offset: 0, length: 6 }]);
    expect(body.result.photo).toHaveLength(3);
  });

  it('should record every call with its method, params, time and outcome', async () => {
    await call(fake, 'sendMessage', { chat_id: 1001, text: 'one' });
    await call(fake, 'sendMessage', { chat_id: 42, text: 'two' });

    expect(fake.callsTo('sendMessage')).toEqual([
      expect.objectContaining({ params: { chat_id: 1001, text: 'one' }, status: 200 }),
      expect.objectContaining({
        params: { chat_id: 42, text: 'two' },
        status: 400,
        error: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
      }),
    ]);
    expect(fake.calls[0]!.at).toBeInstanceOf(Date);
  });

  it('should answer 429 with retry_after while flooding and recover after stopFlood', async () => {
    fake.flood(7, ['sendMessage']);

    const flooded = await call(fake, 'sendMessage', { chat_id: 1001, text: 'x' });
    const other = await call(fake, 'getMe');
    fake.stopFlood();
    const after = await call(fake, 'sendMessage', { chat_id: 1001, text: 'x' });

    expect(flooded).toEqual({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 7',
        parameters: { retry_after: 7 },
      },
    });
    expect(other.status).toBe(200);
    expect(after.status).toBe(200);
  });

  it('should fail only the next call of a method with an injected error', async () => {
    fake.failNext('sendMessage', { error_code: 400, description: 'Bad Request: custom' });

    const first = await call(fake, 'sendMessage', { chat_id: 1001, text: 'x' });
    const second = await call(fake, 'sendMessage', { chat_id: 1001, text: 'x' });

    expect(first.body).toEqual({ ok: false, error_code: 400, description: 'Bad Request: custom' });
    expect(second.body.ok).toBe(true);
  });

  it('should answer 502 while failing and refuse connections while down', async () => {
    fake.faults.fail();
    const failing = await call(fake, 'getMe');
    await fake.faults.clear();
    await fake.faults.down();
    const down = await fetch(`${fake.url}/bot${fake.token}/getMe`).then(
      () => 'connected',
      (e: { cause?: { code?: string } }) => e.cause?.code,
    );
    await fake.faults.up();
    const back = await call(fake, 'getMe');

    expect(failing.status).toBe(502);
    expect(failing.body).toEqual({ ok: false, error_code: 502, description: 'Bad Gateway' });
    expect(down).toBe('ECONNREFUSED');
    expect(back.status).toBe(200);
  });
});
