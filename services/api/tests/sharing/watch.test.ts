// Account sharing (docs/sharing.md) on both media-server fakes: the watch turns live sessions
// into observations, the rules into events, and SHARING_ACTION into a message, a stop or a
// suspension the fake receives. The "Must show" list, one test each.
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { auditLog, sharingObservations, users } from '../../src/db/schema/index.js';
import {
  HOUR_SLOTS,
  rejudgeDue,
  rejudgeSlot,
  runSharingWatch,
} from '../../src/modules/sharing/index.js';
import { createTestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { ENGINE } from '../support/database.js';
import { FLAVOURS } from '../support/flavours.js';
import { aUser } from '../support/users.js';
import { BERLIN, BERLIN_2, HOUR, MINUTE, SYDNEY, useSharingEnv } from './harness.js';

describe.each(FLAVOURS)(`sharing watch on %s (${ENGINE})`, (flavour) => {
  const env = useSharingEnv(flavour, {
    SHARING_ACTION: 'notify',
    SHARING_CONFIRM: false,
    SHARING_MAX_STREAMS: 2,
    SHARING_MAX_NETWORKS: 3,
    SHARING_MAX_DEVICES: 5,
  });

  const commands = (command: string) =>
    env.media.state.sessionCommands.filter((c) => c.command === command);

  it('should record one event and send a message when a 1-stream member plays on two devices from two networks', async () => {
    await env.set({ SHARING_ACTION: 'message' });
    const member = await env.member({ maxStreams: 1, locale: 'zh-CN' });
    env.play(member, 'tv', BERLIN);
    await env.runWatch();
    env.advance(MINUTE);
    const second = env.play(member, 'laptop', BERLIN_2);
    const run = await env.runWatch();
    expect(run.summary).toMatchObject({ events: 1, actioned: 1 });
    const events = await env.events(member.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      rule: 'streams',
      status: 'actioned',
      actionTaken: 'message',
    });
    // The message went to the newer stream only, in the member's language.
    expect(commands('Message')).toEqual([
      expect.objectContaining({ sessionId: second.id, header: '账号共享提醒' }),
    ]);
    // The next tick in the same hour records nothing more and sends nothing more.
    await env.runWatch();
    expect(await env.events(member.id)).toHaveLength(1);
    expect(commands('Message')).toHaveLength(1);
    const audit = await env.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, member.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['sharing.action', 'sharing.detected']);
  });

  it('should stop the offending stream when SHARING_ACTION is stop', async () => {
    await env.set({ SHARING_ACTION: 'stop', SHARING_MAX_STREAMS: 1 });
    const member = await env.member();
    const first = env.play(member, 'tv', BERLIN);
    await env.runWatch();
    const second = env.play(member, 'laptop', BERLIN_2);
    await env.runWatch();
    expect(commands('Stop').map((c) => c.sessionId)).toEqual([second.id]);
    expect(env.media.state.sessions.get(second.id)!.playing).toBeUndefined();
    expect(env.media.state.sessions.get(first.id)!.playing).toBeDefined();
    const server = await env.t.context.integrations.mediaServer.get();
    const live = await server.listSessions();
    expect(live.find((s) => s.id === second.id)!.nowPlaying).toBeUndefined();
  });

  it('should suspend the member, tell them, and end the suspension by itself', async () => {
    await env.set({ SHARING_ACTION: 'suspend', SHARING_MAX_STREAMS: 1, SHARING_SUSPEND_HOURS: 2 });
    const member = await env.member();
    await env.t.context.db.update(users).set({ messengerId: 4242 }).where(eq(users.id, member.id));
    env.play(member, 'tv', BERLIN);
    env.play(member, 'laptop', BERLIN_2);
    await env.runWatch();
    await env.t.context.notify.idle();
    const dms = env.bot.calls.filter(
      (c) => c.path === '/notify/member' && c.body.messengerId === 4242,
    );
    expect(dms).toEqual([
      expect.objectContaining({
        body: expect.objectContaining({ notice: 'sharing_suspension', locale: 'en' }),
      }),
    ]);
    const disabled = () => env.media.state.users.get(member.mediaUserId)!.policy['IsDisabled'];
    expect(disabled()).toBe(true);
    const [row] = await env.t.context.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.sharingSuspendedUntil).toEqual(new Date(env.now().getTime() + 2 * HOUR));
    const mails = env.smtp.messages.filter((m) => m.envelope.to.includes(member.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Cinema Club: your access is paused until /);
    expect(mails[0]!.text).toContain('too many streams at once');
    env.media.state.sessions.clear();
    env.advance(HOUR);
    await env.runWatch();
    expect(disabled()).toBe(true);
    env.advance(HOUR + MINUTE);
    await env.runWatch();
    expect(disabled()).toBe(false);
    const [after] = await env.t.context.db.select().from(users).where(eq(users.id, member.id));
    expect(after!.sharingSuspendedUntil).toBeNull();
    expect(after!.mediaDisabled).toBe(false);
  });

  it('should count the same device reconnecting as one stream', async () => {
    await env.set({ SHARING_MAX_STREAMS: 1, SHARING_MAX_DEVICES: 1 });
    const member = await env.member();
    const before = env.play(member, 'phone', BERLIN);
    await env.runWatch();
    env.advance(MINUTE);
    const after = env.play(member, 'phone', BERLIN);
    expect(after.id).not.toBe(before.id);
    await env.runWatch();
    expect(await env.events(member.id)).toEqual([]);
    const seen = await env.t.context.db
      .select()
      .from(sharingObservations)
      .where(eq(sharingObservations.userId, member.id));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.sessionId).toBe(after.id);
  });

  it('should take two addresses in one IPv6 /64 as one network', async () => {
    await env.set({ SHARING_MAX_NETWORKS: 1, SHARING_MAX_STREAMS: 5 });
    const member = await env.member();
    env.play(member, 'tv', '2a01:4f8:c17:1a2b::10');
    env.play(member, 'tablet', '2a01:4f8:c17:1a2b:8000::2');
    await env.runWatch();
    expect(await env.events(member.id)).toEqual([]);
    const seen = await env.t.context.db
      .select()
      .from(sharingObservations)
      .where(eq(sharingObservations.userId, member.id));
    expect(new Set(seen.map((s) => s.network))).toEqual(new Set(['2a01:4f8:c17:1a2b::/64']));
    // Another prefix is another network.
    env.play(member, 'phone', '2a01:4f8:c17:1a2c::10');
    await env.runWatch();
    expect((await env.events(member.id)).map((e) => e.rule)).toEqual(['networks']);
  });

  it('should record impossible travel from Berlin to Sydney ten minutes apart', async () => {
    const member = await env.member();
    env.play(member, 'tv', BERLIN);
    await env.runWatch();
    env.media.state.sessions.clear();
    env.advance(10 * MINUTE);
    await env.runWatch();
    env.play(member, 'phone', SYDNEY);
    await env.runWatch();
    const [event] = await env.events(member.id);
    expect(event).toMatchObject({ rule: 'travel', status: 'open', action: 'notify' });
    const evidence = event!.evidence as {
      places: { city: string; country: string }[];
      travel: { distanceKm: number; speedKmh: number };
    };
    expect(evidence.places.map((p) => p.country)).toEqual(['DE', 'AU']);
    expect(evidence.places[1]!.city).toBe('Sydney');
    expect(evidence.travel.distanceKm).toBeGreaterThan(15_000);
    expect(evidence.travel.speedKmh).toBeGreaterThan(800);
  });

  it('should never judge a LAN address, an admin or an exempt member', async () => {
    await env.set({ SHARING_MAX_STREAMS: 1, SHARING_ACTION: 'stop' });
    const home = await env.member();
    env.play(home, 'tv', '192.168.1.10');
    env.play(home, 'laptop', '192.168.1.11');
    env.play(home, 'phone', '10.0.0.7');
    const exempt = await env.member();
    await env.t.call('PUT', `/api/v1/admin/sharing/members/${exempt.id}/exempt`, {
      token: env.adminToken,
      body: { exempt: true },
    });
    env.play(exempt, 'tv', BERLIN);
    env.play(exempt, 'laptop', SYDNEY);
    const server = await env.t.context.integrations.mediaServer.get();
    const adminMedia = await server.createUser('admin_viewer', 'media-pw-1');
    const admin = await aUser().admin().named('admin_viewer').create(env.t.context.db);
    await env.t.context.db
      .update(users)
      .set({ mediaUserId: adminMedia.id })
      .where(eq(users.id, admin.id));
    const asMember = {
      id: admin.id,
      username: 'admin_viewer',
      email: '',
      mediaUserId: adminMedia.id,
    };
    env.play(asMember, 'tv', BERLIN);
    env.play(asMember, 'laptop', SYDNEY);
    await env.runWatch();
    expect(await env.events(admin.id)).toEqual([]);
    expect(await env.events(home.id)).toEqual([]);
    expect(await env.events(exempt.id)).toEqual([]);
    expect(env.media.state.sessionCommands).toEqual([]);
    const [row] = await env.t.context.db
      .select()
      .from(sharingObservations)
      .where(eq(sharingObservations.userId, home.id));
    expect(row).toMatchObject({ network: 'home', home: true, city: null });
  });

  it('should record one event and act once when two replicas watch at the same time', async () => {
    await env.set({ SHARING_ACTION: 'stop', SHARING_MAX_STREAMS: 1 });
    const member = await env.member();
    env.play(member, 'tv', BERLIN);
    env.play(member, 'laptop', BERLIN_2);
    const other = createTestApp(env.database.handle, {
      config: testConfig(),
      now: env.now,
      replicaId: 'replica-b',
      settingsEnv: env.settingsEnv,
    });
    const signal = new AbortController().signal;
    const run = { signal, logger: env.t.logs.logger };
    await other.context.settings.store.get('SHARING_ENABLED');
    // Straight to the tick on both (bypassing the job lease): only the unique index decides.
    await Promise.all([runSharingWatch(env.t.context, run), runSharingWatch(other.context, run)]);
    expect(await env.events(member.id)).toHaveLength(1);
    expect(commands('Stop')).toHaveLength(1);
  });

  it('should raise the trust score when an admin dismisses an event', async () => {
    await env.set({ SHARING_MAX_STREAMS: 1 });
    const member = await env.member();
    env.play(member, 'tv', BERLIN);
    env.play(member, 'laptop', BERLIN_2);
    await env.runWatch();
    const read = async () =>
      (await (
        await env.t.call('GET', `/api/v1/admin/sharing/members/${member.id}`, {
          token: env.adminToken,
        })
      ).json()) as { trustScore: number; timeline: unknown[]; places: unknown[] };
    const before = await read();
    expect(before.trustScore).toBeLessThan(100);
    expect(before.timeline).toHaveLength(2);
    expect(before.places).toEqual([
      expect.objectContaining({ city: 'Berlin (Charlottenburg-Wilmersdorf)', country: 'DE' }),
      expect.objectContaining({ city: 'Berlin (Bezirk Mitte)', country: 'DE' }),
    ]);
    const [event] = await env.events(member.id);
    const res = await env.t.call('POST', `/api/v1/admin/sharing/events/${event!.id}/dismiss`, {
      token: env.adminToken,
      body: { note: 'a trip abroad' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'dismissed', note: 'a trip abroad' });
    expect((await read()).trustScore).toBeGreaterThan(before.trustScore);
  });

  it("should record a violation that goes on once an hour, in the member's own slot of the hour", async () => {
    await env.set({ SHARING_MAX_STREAMS: 1 });
    const member = await env.member();
    env.play(member, 'tv', BERLIN);
    env.play(member, 'laptop', BERLIN_2);
    await env.runWatch();
    env.advance(10 * MINUTE);
    env.keepPlaying();
    await env.runWatch();
    expect(await env.events(member.id)).toHaveLength(1);
    // The member's slot in the next hour: the tick before it judges nobody again…
    const slotAt =
      Math.floor(env.now().getTime() / HOUR) * HOUR + HOUR + rejudgeSlot(member.id) * 30_000;
    env.advance(slotAt - 30_000 - env.now().getTime());
    env.keepPlaying();
    expect((await env.runWatch()).summary).toMatchObject({ judged: 0 });
    expect(await env.events(member.id)).toHaveLength(1);
    // …the tick of the slot judges the member again and records the hour's event.
    env.advance(30_000);
    env.keepPlaying();
    expect((await env.runWatch()).summary).toMatchObject({ judged: 1, events: 1 });
    const events = await env.events(member.id);
    expect(events.map((e) => e.rule)).toEqual(['streams', 'streams']);
    expect(new Set(events.map((e) => e.cooldownHour.toISOString())).size).toBe(2);
  });
});

describe('sharing watch: the hourly re-judging slots', () => {
  it('should spread the hourly re-judging over the ticks of the hour, each member once', () => {
    const ids = Array.from({ length: 600 }, () => uuidv7());
    const start = Date.parse('2026-12-07T10:00:00.000Z');
    const perTick = Array.from({ length: HOUR_SLOTS }, (_, tick) => {
      const at = new Date(start + tick * 30_000);
      return ids.filter((id) => rejudgeDue(id, at)).length;
    });
    // Every member exactly once an hour…
    expect(perTick.reduce((a, b) => a + b, 0)).toBe(ids.length);
    // …and no tick with more than a few times its share (5 on average).
    expect(Math.max(...perTick)).toBeLessThanOrEqual(20);
    expect(
      ids.every((id) => Number.isInteger(rejudgeSlot(id)) && rejudgeSlot(id) < HOUR_SLOTS),
    ).toBe(true);
  });
});
