/**
 * `/notify/ranking` through the Telegram fake in both languages (40-bot.md §2.4, §10): the chat's
 * language is BOT_LANGUAGE, the cutoff is shown as HH:mm in the batch's timezone, durations round
 * minutes up, ranks past the podium are numbered, and names are escaped.
 */
import { startFakeTelegram, type FakeTelegram } from '@usher/testkit';
import {
  INTERNAL_SECRET,
  lastMessage,
  notifyHeaders,
  startReplica,
  type Replica,
} from './support/harness.js';
import { ranking } from './support/payloads.js';
import { StubApi } from './support/stub-api.js';

const ADMIN_CHAT = -1001000000011;
const GROUP = -1001000000012;

/** The weekly batch the API's ranking suite computes by hand (Berlin, week of 19 October). */
const weekly = ranking({
  period: 'weekly',
  periodStart: '2026-10-19',
  periodEnd: '2026-10-25',
  // Sunday's end: 24:00 CET is 00:00 of Monday in Berlin.
  cutoffAt: '2026-10-25T23:00:00.000Z',
  timezone: 'Europe/Berlin',
  totalDurationSeconds: 18_700,
  movies: [
    { rank: 1, name: 'Oppenheimer', playCount: 3, durationSeconds: 6000 },
    { rank: 2, name: 'Mad Max: Fury Road', playCount: 2, durationSeconds: 5000 },
    { rank: 3, name: 'Dune: Part Two', playCount: 1, durationSeconds: 2000 },
    { rank: 4, name: 'Tom & Jerry <Remastered>', playCount: 1, durationSeconds: 3600 },
  ],
  series: [
    { rank: 1, name: '漫长的季节', playCount: 3, durationSeconds: 3600 },
    { rank: 2, name: 'The Bear', playCount: 1, durationSeconds: 1800 },
  ],
});

describe.each([
  [
    'en',
    [
      '🏆 Weekly top plays',
      '📅 2026-10-19 ~ 2026-10-25 · until 00:00',
      '⏱ Total: 5h 12m',
      '',
      '🎬 Movies',
      '🥇 Oppenheimer · ⏱ 1h 40m · ▶ 3',
      '🥈 Mad Max: Fury Road · ⏱ 1h 24m · ▶ 2',
      '🥉 Dune: Part Two · ⏱ 34m · ▶ 1',
      '4. Tom & Jerry <Remastered> · ⏱ 1h 0m · ▶ 1',
      '',
      '📺 Series',
      '🥇 漫长的季节 · ⏱ 1h 0m · ▶ 3',
      '🥈 The Bear · ⏱ 30m · ▶ 1',
    ],
  ],
  [
    'zh-CN',
    [
      '🏆 播放周榜',
      '📅 2026-10-19 ~ 2026-10-25（截至 00:00）',
      '⏱ 总时长：5小时12分钟',
      '',
      '🎬 电影',
      '🥇 Oppenheimer · ⏱ 1小时40分钟 · ▶ 3 次',
      '🥈 Mad Max: Fury Road · ⏱ 1小时24分钟 · ▶ 2 次',
      '🥉 Dune: Part Two · ⏱ 34分钟 · ▶ 1 次',
      '4. Tom & Jerry <Remastered> · ⏱ 1小时0分钟 · ▶ 1 次',
      '',
      '📺 剧集',
      '🥇 漫长的季节 · ⏱ 1小时0分钟 · ▶ 3 次',
      '🥈 The Bear · ⏱ 30分钟 · ▶ 1 次',
    ],
  ],
])('the ranking post in %s', (language, lines) => {
  let fake: FakeTelegram;
  let api: StubApi;
  let bot: Replica;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    api = await new StubApi(INTERNAL_SECRET).start();
    fake.seedChat({ id: ADMIN_CHAT, type: 'supergroup', title: 'Admins' });
    fake.seedChat({ id: GROUP, type: 'supergroup', title: 'Community' });
    api.settings = {
      ...api.settings,
      adminChatId: String(ADMIN_CHAT),
      groupChatId: String(GROUP),
      timezone: 'UTC',
    };
    bot = await startReplica({
      telegram: fake,
      apiUrl: api.url,
      env: { BOT_LANGUAGE: language },
    });
  });
  afterAll(async () => {
    await bot.close();
    await api.close();
    await fake.close();
  });

  it('should post the weekly ranking to the group chat in the chat language', async () => {
    const res = await bot.app.request('/notify/ranking', {
      method: 'POST',
      headers: notifyHeaders(),
      body: JSON.stringify(weekly),
    });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { sent: boolean; deliveries: { to: string }[] };
    expect(reply.sent).toBe(true);
    expect(reply.deliveries.map((d) => d.to)).toEqual(['groupChat']);
    const message = lastMessage(fake, GROUP);
    expect(message.text).toBe(lines.join('\n'));
    // Sent as HTML: the escaped name came through as text, the headings as bold.
    const send = fake.callsTo('sendMessage').at(-1)!;
    expect(send.params).toMatchObject({ parse_mode: 'HTML' });
    expect(String(send.params.text)).toContain('Tom &amp; Jerry &lt;Remastered&gt;');
    expect(message.entities?.some((e) => e.type === 'bold')).toBe(true);
    expect(() => lastMessage(fake, ADMIN_CHAT)).toThrow();
  });

  it('should answer sent:false when neither chat is configured', async () => {
    api.settings = { ...api.settings, adminChatId: null, groupChatId: null };
    const res = await bot.app.request('/notify/ranking', {
      method: 'POST',
      headers: notifyHeaders(),
      body: JSON.stringify(weekly),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      deliveries: [
        { to: 'adminChat', chatId: null, status: 'skipped', reason: 'chat_not_configured' },
      ],
      sent: false,
    });
  });
});
