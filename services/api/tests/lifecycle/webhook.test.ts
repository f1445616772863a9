import { headerText, sendWebhook, type WebhookEvent } from '../../src/modules/lifecycle/webhook.js';
import { startSink, type WebhookSink } from './harness.js';

const notice = {
  locale: 'zh-CN' as const,
  subject: 'Cinema Club：会员将在 3 天后到期',
  text: 'alice，你好：\n\n请续期：https://usher.example/console/renewal',
};
const event: WebhookEvent = {
  event: 'membership.reminder',
  userId: '01900000-0000-7000-8000-000000000001',
  username: 'alice',
  expiresAt: '2026-12-10T10:00:00.000Z',
  daysLeft: 3,
  renewUrl: 'https://usher.example/console/renewal',
  occurredAt: '2026-12-07T10:00:00.000Z',
};

describe('notification webhook formats', () => {
  let sink: WebhookSink;
  beforeAll(async () => {
    sink = await startSink();
  });
  afterAll(async () => {
    await new Promise((r) => sink.server.close(r));
  });
  beforeEach(() => {
    sink.calls.length = 0;
    sink.status = 204;
  });

  it('should post the event with title and text as JSON', async () => {
    const result = await sendWebhook(`${sink.url}/json`, 'json', notice, event);
    expect(result).toEqual({ outcome: 'sent', status: 204 });
    const [call] = sink.calls;
    expect(call!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(call!.body)).toEqual({
      ...event,
      locale: 'zh-CN',
      title: notice.subject,
      text: notice.text,
    });
  });

  it('should post Discord {content} with the title in bold and no mentions', async () => {
    await sendWebhook(`${sink.url}/discord`, 'discord', notice, event);
    expect(JSON.parse(sink.calls[0]!.body)).toEqual({
      content: `**${notice.subject}**\n${notice.text}`,
      allowed_mentions: { parse: [] },
    });
    const long = { ...notice, text: 'x'.repeat(3000) };
    await sendWebhook(`${sink.url}/discord`, 'discord', long, event);
    expect((JSON.parse(sink.calls[1]!.body) as { content: string }).content).toHaveLength(2000);
  });

  it('should post ntfy plain text with a Title header, UTF-8 encoded when not ASCII', async () => {
    await sendWebhook(`${sink.url}/usher-topic`, 'ntfy', notice, event);
    const [call] = sink.calls;
    expect(call!.body).toBe(notice.text);
    expect(call!.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(call!.headers.title).toBe(
      `=?UTF-8?B?${Buffer.from(notice.subject).toString('base64')}?=`,
    );
    expect(headerText('Renew soon\r\nX-Injected: 1')).toBe('Renew soon X-Injected: 1');
  });

  it('should report failures by kind and status only, never the address', async () => {
    sink.status = 500;
    expect(await sendWebhook(`${sink.url}/secret-token`, 'json', notice, event)).toEqual({
      outcome: 'failed',
      reason: 'http',
      status: 500,
    });
    const closed = await sendWebhook('http://127.0.0.1:1/secret-token', 'json', notice, event);
    expect(closed).toEqual({ outcome: 'failed', reason: 'network' });
  });
});
