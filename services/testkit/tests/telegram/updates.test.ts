import { jest } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../../src/support/index.js';
import {
  commandMessage,
  startFakeTelegram,
  textMessage,
  tgUser,
  type FakeTelegram,
  type TgUpdate,
} from '../../src/telegram/index.js';
import { call, ok } from './helpers.js';

const alice = tgUser({ id: 1001, first_name: 'Alice', username: 'alice' });

interface Received {
  headers: http.IncomingHttpHeaders;
  body: TgUpdate;
}

/** A stand-in bot webhook that records what Telegram posts and answers with `reply`. */
async function startWebhookReceiver(reply: (n: number) => { status: number; body?: unknown }) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
      const { status, body } = reply(received.length);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? { ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/messenger/webhook`;
  return { url, received, close: () => new Promise((r) => server.close(r)) };
}

describe('fake Telegram updates: getUpdates and webhooks', () => {
  let fake: FakeTelegram;

  beforeEach(async () => {
    fake = await startFakeTelegram();
  });
  afterEach(() => fake.close());

  it('should build command updates with a bot_command entity and fill in ids', async () => {
    const queued = fake.queueUpdate(
      commandMessage({ from: alice, command: 'bind', args: '123456' }),
    );

    const updates = await ok<TgUpdate[]>(fake, 'getUpdates', {});

    expect(updates).toEqual([queued]);
    expect(queued.update_id).toBeGreaterThan(0);
    expect(queued.message).toEqual(
      expect.objectContaining({
        message_id: 1,
        text: '/bind 123456',
        chat: { id: 1001, type: 'private', first_name: 'Alice', username: 'alice' },
        from: expect.objectContaining({ id: 1001, is_bot: false, language_code: 'en' }),
        entities: [{ type: 'bot_command', offset: 0, length: 5 }],
      }),
    );
  });

  it('should confirm updates below offset and forget them for good', async () => {
    const a = fake.queueUpdate(textMessage({ from: alice, text: 'a' }));
    const b = fake.queueUpdate(textMessage({ from: alice, text: 'b' }));

    const first = await ok<TgUpdate[]>(fake, 'getUpdates', {});
    const second = await ok<TgUpdate[]>(fake, 'getUpdates', { offset: b.update_id });
    const third = await ok<TgUpdate[]>(fake, 'getUpdates', { offset: b.update_id + 1 });

    expect(first.map((u) => u.update_id)).toEqual([a.update_id, b.update_id]);
    expect(second.map((u) => u.update_id)).toEqual([b.update_id]);
    expect(third).toEqual([]);
    expect(fake.state.pending).toEqual([]);
  });

  it('should keep only the last updates for a negative offset and honour limit', async () => {
    for (const text of ['1', '2', '3']) fake.queueUpdate(textMessage({ from: alice, text }));

    const last = await ok<TgUpdate[]>(fake, 'getUpdates', { offset: -2, limit: 1 });

    expect(last.map((u) => u.message?.text)).toEqual(['2']);
    expect(fake.state.pending.map((u) => u.message?.text)).toEqual(['2', '3']);
  });

  /** Waits until the fake has received `n` getUpdates calls (a long poll is then open). */
  const polled = (n: number) =>
    eventually(() => expect(fake.callsTo('getUpdates')).toHaveLength(n));

  it('should hold a long poll until an update is queued', async () => {
    const poll = call(fake, 'getUpdates', { timeout: 30 });
    await polled(1);
    const queued = fake.queueUpdate(textMessage({ from: alice, text: 'wake' }));

    const reply = await poll;

    expect(reply.body.result).toEqual([queued]);
  });

  it('should answer an empty list when the long-poll timeout elapses', async () => {
    // The poll's timeout is the fake's own timer: a fake clock steps past it, the socket is real.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const reply = call(fake, 'getUpdates', { timeout: 1 });
      await polled(1);

      await jest.advanceTimersByTimeAsync(999);
      const before = fake.callsTo('getUpdates')[0]!.result;
      await jest.advanceTimersByTimeAsync(1);
      const after = fake.callsTo('getUpdates')[0]!.result;

      expect(before).toBeUndefined();
      expect(after).toEqual([]);
      expect((await reply).body).toEqual({ ok: true, result: [] });
    } finally {
      jest.useRealTimers();
    }
  });

  it('should terminate the older poll with 409 when a second poll arrives', async () => {
    const older = call(fake, 'getUpdates', { timeout: 30 });
    await polled(1);
    const newer = call(fake, 'getUpdates', { timeout: 30 });
    await polled(2);
    fake.queueUpdate(textMessage({ from: alice, text: 'x' }));

    expect(await older).toEqual({
      status: 409,
      body: {
        ok: false,
        error_code: 409,
        description:
          'Conflict: terminated by other getUpdates request; ' +
          'make sure that only one bot instance is running',
      },
    });
    expect((await newer).body.ok).toBe(true);
  });

  it('should forget an aborted poll so the next poll is not a conflict', async () => {
    const controller = new AbortController();
    const aborted = call(fake, 'getUpdates', { timeout: 30 }, { signal: controller.signal });
    await polled(1);
    controller.abort();
    await aborted.catch(() => undefined);
    // The fake notices the closed socket on its own: wait until it has let that poll go.
    await eventually(() => expect(fake.callsTo('getUpdates')[0]!.result).toEqual([]));
    fake.queueUpdate(textMessage({ from: alice, text: 'kept' }));

    const next = await call(fake, 'getUpdates', { timeout: 1 });

    expect(next.status).toBe(200);
    expect((next.body.result as TgUpdate[])[0]?.message?.text).toBe('kept');
  });

  it('should refuse getUpdates with 409 while a webhook is set', async () => {
    await ok(fake, 'setWebhook', { url: 'https://bot.example.org/messenger/webhook' });

    const reply = await call(fake, 'getUpdates', {});

    expect(reply.status).toBe(409);
    expect(reply.body.description).toBe(
      "Conflict: can't use getUpdates method while webhook is active; " +
        'use deleteWebhook to delete the webhook first',
    );
  });

  it.each([
    [
      'http://bot.example.org/hook',
      'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
    ],
    [
      'https://bot.example.org:8080/hook',
      'Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443',
    ],
  ])('should refuse the webhook url %s', async (url, description) => {
    const reply = await call(fake, 'setWebhook', { url });

    expect(reply.body).toEqual({ ok: false, error_code: 400, description });
  });

  it('should refuse a secret_token outside A-Z a-z 0-9 _ -', async () => {
    const reply = await call(fake, 'setWebhook', { url: 'https://x.org/h', secret_token: 'a b' });

    expect(reply.body.description).toBe('Bad Request: secret token contains unallowed characters');
  });

  it('should deliver pushed updates with the secret header and report webhook info', async () => {
    const receiver = await startWebhookReceiver(() => ({ status: 200 }));
    const set = await call(fake, 'setWebhook', {
      url: receiver.url,
      secret_token: 'secret_token-1',
      allowed_updates: ['message', 'callback_query'],
    });

    const { update, deliveries } = await fake.pushUpdate(textMessage({ from: alice, text: 'hi' }));
    const info = await ok(fake, 'getWebhookInfo');
    await receiver.close();

    expect(set.body).toEqual({ ok: true, result: true, description: 'Webhook was set' });
    expect(deliveries).toEqual([{ update, status: 200, body: '{"ok":true}' }]);
    expect(receiver.received[0]!.headers['x-telegram-bot-api-secret-token']).toBe('secret_token-1');
    expect(receiver.received[0]!.body).toEqual(update);
    expect(info).toEqual(
      expect.objectContaining({
        url: receiver.url,
        pending_update_count: 0,
        allowed_updates: ['message', 'callback_query'],
      }),
    );
  });

  it('should keep an update pending and record the error on a webhook 401', async () => {
    const receiver = await startWebhookReceiver((n) => ({ status: n === 1 ? 401 : 200 }));
    await ok(fake, 'setWebhook', { url: receiver.url });

    const first = await fake.pushUpdate(textMessage({ from: alice, text: 'retry me' }));
    const info = await ok(fake, 'getWebhookInfo');
    const retried = await fake.deliverPending();
    await receiver.close();

    expect(first.deliveries.map((d) => d.status)).toEqual([401]);
    expect(info).toEqual(
      expect.objectContaining({
        pending_update_count: 1,
        last_error_message: 'Wrong response from the webhook: 401 Unauthorized',
      }),
    );
    expect(retried.map((d) => d.status)).toEqual([200]);
    expect(fake.state.pending).toEqual([]);
  });

  it('should run a method returned in the webhook reply, as webhookReply does', async () => {
    const receiver = await startWebhookReceiver(() => ({
      status: 200,
      body: { method: 'sendMessage', chat_id: 1001, text: 'from reply' },
    }));
    await ok(fake, 'setWebhook', { url: receiver.url });

    await fake.pushUpdate(textMessage({ from: alice, text: 'hi' }));
    await receiver.close();

    expect(fake.callsTo('sendMessage')).toEqual([
      expect.objectContaining({ via: 'webhook-reply', status: 200 }),
    ]);
    expect(fake.messages(1001).map((m) => m.text)).toEqual(['hi', 'from reply']);
  });

  it('should drop update types outside allowed_updates', async () => {
    await ok(fake, 'getUpdates', { allowed_updates: ['callback_query'] });

    fake.queueUpdate(textMessage({ from: alice, text: 'ignored' }));
    const updates = await ok<TgUpdate[]>(fake, 'getUpdates', {});

    expect(updates).toEqual([]);
  });

  it('should delete the webhook, optionally dropping pending updates', async () => {
    await ok(fake, 'setWebhook', { url: 'https://x.org/h' });
    fake.queueUpdate(textMessage({ from: alice, text: 'x' }));

    const deleted = await call(fake, 'deleteWebhook', { drop_pending_updates: true });
    const again = await call(fake, 'deleteWebhook', {});

    expect(deleted.body).toEqual({ ok: true, result: true, description: 'Webhook was deleted' });
    expect(again.body.description).toBe('Webhook is already deleted');
    expect(fake.state.pending).toEqual([]);
  });
});
