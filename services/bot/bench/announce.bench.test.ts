// An announcement to 2 000 linked members through the real bot and a Telegram fake that enforces
// Telegram's flood control (about 30 messages a second across chats, one a second per chat):
// the bot is fed `/notify/member` at the pace the API's `announcements` job keeps
// (BULK_MESSAGES_PER_SECOND), and every member must get the message exactly once, with no 429
// left unretried. Prints the figures and one `BENCH_ANNOUNCE {json}` line (docs/lifecycle.md).
import { randomUUID } from 'node:crypto';
import { BULK_MESSAGES_PER_SECOND } from '@usher/contracts/values';
import { privateChat, startFakeTelegram, tgUser } from '@usher/testkit';
import { INTERNAL_SECRET, notifyHeaders, startReplica } from '../tests/support/harness.js';
import { StubApi } from '../tests/support/stub-api.js';

const MEMBERS = Number(process.env.BENCH_ANNOUNCE_MEMBERS ?? 2000);

test(`an announcement to ${MEMBERS} members keeps within Telegram's limits`, async () => {
  const fake = await startFakeTelegram({
    rateLimits: { globalPerSecond: 30, perChatPerSecond: 1 },
  });
  const api = await new StubApi(INTERNAL_SECRET).start();
  const chats = Array.from({ length: MEMBERS }, (_, i) => 5_000_000 + i);
  for (const id of chats) fake.seedChat(privateChat(tgUser({ id, first_name: `M${id}` })));
  const bot = await startReplica({ telegram: fake, apiUrl: api.url });
  try {
    // Spaced as the API's job spaces them: each send `gap` ms after the previous one started
    // (never a catch-up burst after a late timer).
    const gap = 1000 / BULK_MESSAGES_PER_SECOND;
    const started = Date.now();
    let next = started;
    const outcomes: number[] = [];
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < chats.length; i += 1) {
      const at = Math.max(Date.now(), next);
      next = at + gap;
      const wait = at - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(
        Promise.resolve(
          bot.app.request('/notify/member', {
            method: 'POST',
            headers: notifyHeaders(),
            body: JSON.stringify({
              eventId: randomUUID(),
              occurredAt: new Date().toISOString(),
              notice: 'announcement',
              userId: randomUUID(),
              messengerId: chats[i],
              locale: 'en',
              text: '📢 Maintenance\n\nThe server restarts on Sunday at 02:00.',
            }),
          }),
        ).then((res) => void outcomes.push(res.status)),
      );
    }
    await Promise.all(inFlight);
    const seconds = (Date.now() - started) / 1000;

    const sends = fake.callsTo('sendMessage');
    const refused = sends.filter((c) => c.status === 429).length;
    const times = sends.filter((c) => c.status === 200).map((c) => c.at.getTime());
    const maxPerSecond = Math.max(
      ...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length),
    );
    const perChat = chats.map((id) => fake.messages(id).length);
    const figures = {
      members: MEMBERS,
      seconds: Number(seconds.toFixed(1)),
      pacePerSecond: BULK_MESSAGES_PER_SECOND,
      delivered: perChat.filter((n) => n === 1).length,
      duplicated: perChat.filter((n) => n > 1).length,
      missing: perChat.filter((n) => n === 0).length,
      refused429: refused,
      notDelivered: outcomes.filter((s) => s !== 200).length,
      maxMessagesInOneSecond: maxPerSecond,
    };
    process.stdout.write(`BENCH_ANNOUNCE ${JSON.stringify(figures)}\n`);
    expect(figures).toMatchObject({
      delivered: MEMBERS,
      duplicated: 0,
      missing: 0,
      notDelivered: 0,
    });
    expect(maxPerSecond).toBeLessThanOrEqual(30);
  } finally {
    await bot.close();
    await api.close();
    await fake.close();
  }
});
