// What the demo prints: the API-only and no-bot variants the end-to-end run does not take, the
// bot command it offers for pasting, and the bot's messages as the terminal shows them.
import { botCommandCurl, describeDemo, telegramLines } from '../../src/demo/banner.js';
import type { BannerInput } from '../../src/demo/banner.js';
import { startDemoFakes } from '../../src/demo/fakes.js';
import type { DemoFakes } from '../../src/demo/fakes.js';
import type { SeededUsher } from '../../src/demo/seed-usher.js';
import type { TelegramCall } from '../../src/telegram/server.js';

const seeded: SeededUsher = {
  admin: { username: 'admin', password: 'abcd-efgh-jkmn-pqrs', telegramId: 600000001 },
  member: { username: 'lila', password: 'lila-demo', telegramId: 600000002 },
  users: 35,
  codes: 9,
  redemptions: 8,
  requests: { PENDING: 5, APPROVED: 3, REJECTED: 3, INGESTED: 2 },
};

describe('demo banner', () => {
  let fakes: DemoFakes;
  const input = (over: Partial<BannerInput>): BannerInput => ({
    url: 'http://localhost:8080',
    seeded,
    dataDir: '/tmp/usher-demo-x',
    webDist: '/repo/web/dist/web/browser',
    fakes,
    bot: { url: 'http://127.0.0.1:40000' },
    seconds: 12.3,
    ...over,
  });

  beforeAll(async () => {
    fakes = await startDemoFakes({ seed: 3, movies: 10, shows: 2, users: 4 });
  });
  afterAll(() => fakes.close());

  it('should print both sign-ins, what Usher holds and how to reach the bot', () => {
    const text = describeDemo(input({}));

    expect(text).toMatch(/Sign in\s+admin \/ abcd-efgh-jkmn-pqrs\s+\(administrator\)/);
    expect(text).toMatch(/^\s+lila \/ lila-demo\s+\(member/m);
    expect(text).toContain('35 accounts, 9 redeem codes (8 redeemed)');
    expect(text).toContain('5 pending, 3 approved, 3 rejected, 2 ingested');
    expect(text).toContain('Web app    /repo/web/dist/web/browser');
    expect(text).toContain('webhook mode at http://127.0.0.1:40000');
    expect(text).toContain(`${fakes.telegram.url}/__fake/messages?chat_id=600000002`);
  });

  it('should say when only the API is served and when the bot is not there', () => {
    const apiOnly = describeDemo(input({ webDist: undefined, bot: undefined }));
    expect(apiOnly).toContain('Web app    not served: API only');
    expect(apiOnly).toContain('Bot: not started');
    expect(apiOnly).not.toContain('__fake/updates');

    const failed = describeDemo(input({ bot: { problem: 'the bot exited early (code 3)' } }));
    expect(failed).toContain('Bot: did not start (the bot exited early (code 3))');
  });

  it('should offer a command the Telegram fake accepts as a bot command', async () => {
    const curl = botCommandCurl(fakes.telegram.url, 600000002, 'Lila', '/search harbor');
    const body = JSON.parse(/-d '(.*)'$/.exec(curl)![1]!) as { update: unknown };

    // Queued rather than delivered: no bot listens in this test.
    const res = await fetch(`${fakes.telegram.url}/__fake/updates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ update: body.update }),
    });

    expect(res.status).toBe(200);
    const { update } = (await res.json()) as {
      update: { message: { text: string; entities: { type: string; length: number }[] } };
    };
    expect(update.message.text).toBe('/search harbor');
    expect(update.message.entities).toEqual([{ type: 'bot_command', offset: 0, length: 7 }]);
  });

  it("should show the bot's cards as text with their buttons, and nothing for other calls", () => {
    const call = (method: string, params: Record<string, unknown>, status = 200) =>
      ({ method, params, status, at: new Date(), via: 'http' }) as TelegramCall;
    const name = (id: number) => `Usher Admins (${id})`;

    const card = telegramLines(
      call('sendPhoto', {
        chat_id: -1001,
        caption: '<b>New request</b>\nSalt &amp; Pepper (2021)',
        reply_markup: JSON.stringify({
          inline_keyboard: [[{ text: 'Approve' }, { text: 'Reject' }]],
        }),
      }),
      name,
    );

    expect(card).toContain('💬 Bot to Usher Admins (-1001):');
    expect(card).toContain('   New request\n   Salt & Pepper (2021)');
    expect(card).toContain('[Approve] [Reject]');
    expect(telegramLines(call('getMe', {}), name)).toBe('');
    expect(telegramLines(call('sendMessage', { chat_id: 1, text: 'x' }, 403), name)).toBe('');
  });
});
