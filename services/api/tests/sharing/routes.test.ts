// The sharing routes (docs/sharing.md): with SHARING_CONFIRM the watch records and waits; an
// admin confirms a stop (the session loses its item on the fake), errors take the shared body,
// the list filters, and a member sees their own streams and limit.
import { eq } from 'drizzle-orm';
import {
  auditLog,
  mediaServerRetryQueue,
  sharingEvents,
  users,
} from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { domainFlavours } from '../support/flavours.js';
import { BERLIN, BERLIN_2, useSharingEnv } from './harness.js';

describe.each(domainFlavours('jellyfin'))(`sharing routes on %s (${ENGINE})`, (flavour) => {
  const env = useSharingEnv(flavour, {
    SHARING_ACTION: 'stop',
    SHARING_CONFIRM: true,
    SHARING_MAX_STREAMS: 1,
  });

  const admin = (method: string, path: string, body?: unknown) =>
    env.t.call(method, path, { token: env.adminToken, ...(body === undefined ? {} : { body }) });

  it('should wait for an admin, then stop the offending stream on confirmation', async () => {
    const member = await env.member();
    env.play(member, 'tv', BERLIN);
    await env.runWatch();
    const laptop = env.play(member, 'laptop', BERLIN_2);
    await env.runWatch();
    expect(env.media.state.sessionCommands).toEqual([]);
    const list = await admin('GET', `/api/v1/admin/sharing/events?status=open&userId=${member.id}`);
    expect(list.status).toBe(200);
    const page = (await list.json()) as {
      total: number;
      data: { id: string; rule: string; evidence: { sessions: unknown[] } }[];
    };
    expect(page.total).toBe(1);
    expect(page.data[0]).toMatchObject({ rule: 'streams', status: 'open', action: 'stop' });
    expect(page.data[0]!.evidence.sessions).toEqual([
      expect.objectContaining({
        deviceId: 'tv',
        offending: false,
        city: 'Berlin (Charlottenburg-Wilmersdorf)',
      }),
      expect.objectContaining({ deviceId: 'laptop', offending: true, sessionId: laptop.id }),
    ]);
    const none = await admin('GET', `/api/v1/admin/sharing/events?rule=travel&userId=${member.id}`);
    expect(((await none.json()) as { total: number }).total).toBe(0);

    const res = await admin('POST', `/api/v1/admin/sharing/events/${page.data[0]!.id}/act`, {
      action: 'stop',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'actioned', actionTaken: 'stop' });
    expect(env.media.state.sessions.get(laptop.id)!.playing).toBeUndefined();
    const audit = await env.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'sharing.action'));
    expect(audit.at(-1)).toMatchObject({ actorType: 'admin', targetId: member.id });

    // Acting again is refused, nothing sent twice.
    const again = await admin('POST', `/api/v1/admin/sharing/events/${page.data[0]!.id}/act`, {
      action: 'stop',
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'SHARING_EVENT_CLOSED' } });
    expect(env.media.state.sessionCommands).toHaveLength(1);
  });

  it('should keep the event open with the upstream error when the media server refuses', async () => {
    const member = await env.member();
    env.play(member, 'tv', BERLIN);
    env.play(member, 'laptop', BERLIN_2);
    await env.runWatch();
    const [event] = await env.events(member.id);
    env.media.fail(500, '/Playing/Stop');
    try {
      const res = await admin('POST', `/api/v1/admin/sharing/events/${event!.id}/act`, {
        action: 'stop',
      });
      expect(res.status).toBe(502);
    } finally {
      env.media.clearFaults();
    }
    const [row] = await env.t.context.db
      .select()
      .from(sharingEvents)
      .where(eq(sharingEvents.id, event!.id));
    expect(row).toMatchObject({ status: 'open', actionTaken: null });
    expect(row!.actionError).toMatch(/500|unavailable/i);
  });

  it('should answer the shared error body for unknown events and bad input', async () => {
    const unknown = '01a250d9-0000-7000-8000-000000000000';
    const res = await admin('POST', `/api/v1/admin/sharing/events/${unknown}/dismiss`, {
      note: '',
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'SHARING_EVENT_NOT_FOUND' } });
    const bad = await admin('POST', `/api/v1/admin/sharing/events/${unknown}/act`, {
      action: 'ban',
    });
    expect(bad.status).toBe(400);
    const filter = await admin('GET', '/api/v1/admin/sharing/events?status=closed');
    expect(filter.status).toBe(400);
  });

  it("should show a member their own live streams and limit, and refuse them the admin's view", async () => {
    const member = await env.member({ maxStreams: 3 });
    env.play(member, 'tv', BERLIN);
    env.play(member, 'tablet', '192.168.0.20');
    await env.runWatch();
    const token = (await env.t.context.tokens.sign({ sub: member.id, role: 'user', ver: 0 })).token;
    const res = await env.t.call('GET', '/api/v1/me/streams', { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { limit: number; enabled: boolean; streams: unknown[] };
    expect(body).toMatchObject({ enabled: true, limit: 3, suspendedUntil: null, recent: [] });
    expect(body.streams).toEqual([
      expect.objectContaining({ deviceName: 'Device tv', country: 'DE', home: false }),
      expect.objectContaining({ deviceName: 'Device tablet', country: null, home: true }),
    ]);
    const forbidden = await env.t.call('GET', '/api/v1/admin/sharing/events', { token });
    expect(forbidden.status).toBe(403);
  });

  it("should validate the sharing settings and keep a plan's stream limit", async () => {
    const bad = await admin('PUT', '/api/v1/admin/settings/sharing', {
      values: { SHARING_ACTION: 'ban', SHARING_MAX_STREAMS: 0 },
    });
    expect(bad.status).toBe(400);
    const error = ((await bad.json()) as { error: { code: string; details: { key: string }[] } })
      .error;
    expect(error.code).toBe('SETTING_INVALID');
    expect(error.details.map((d) => d.key).sort()).toEqual([
      'SHARING_ACTION',
      'SHARING_MAX_STREAMS',
    ]);
    const created = await admin('POST', '/api/v1/admin/plans', {
      name: 'Duo',
      days: 30,
      price: 900,
      currency: 'eur',
      maxStreams: 2,
    });
    expect(created.status).toBe(201);
    const plan = (await created.json()) as { id: string; maxStreams: number | null };
    expect(plan.maxStreams).toBe(2);
    const cleared = await admin('PATCH', `/api/v1/admin/plans/${plan.id}`, { maxStreams: null });
    expect(await cleared.json()).toMatchObject({ maxStreams: null });
    const tooMany = await admin('PATCH', `/api/v1/admin/plans/${plan.id}`, { maxStreams: 101 });
    expect(tooMany.status).toBe(400);
  });

  it('should lift the suspension an event caused when the admin dismisses it', async () => {
    const member = await env.member();
    env.play(member, 'tv', BERLIN);
    env.play(member, 'laptop', BERLIN_2);
    await env.runWatch();
    const [event] = await env.events(member.id);
    const acted = await admin('POST', `/api/v1/admin/sharing/events/${event!.id}/act`, {
      action: 'suspend',
    });
    expect(acted.status).toBe(200);
    const disabled = () => env.media.state.users.get(member.mediaUserId)!.policy['IsDisabled'];
    expect(disabled()).toBe(true);
    const dismissed = await admin('POST', `/api/v1/admin/sharing/events/${event!.id}/dismiss`, {
      note: 'my own devices',
    });
    expect(dismissed.status).toBe(200);
    expect(disabled()).toBe(false);
    const [row] = await env.t.context.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.sharingSuspendedUntil).toBeNull();
  });

  it('should leave a suspension the media server refused to the retry queue', async () => {
    const member = await env.member();
    env.play(member, 'tv', BERLIN);
    env.play(member, 'laptop', BERLIN_2);
    await env.runWatch();
    const [event] = await env.events(member.id);
    env.media.fail(503, '/Policy');
    try {
      const acted = await admin('POST', `/api/v1/admin/sharing/events/${event!.id}/act`, {
        action: 'suspend',
      });
      expect(acted.status).toBe(200);
      expect(await acted.json()).toMatchObject({ status: 'actioned', actionTaken: 'suspend' });
    } finally {
      env.media.clearFaults();
    }
    const queued = await env.t.context.db
      .select()
      .from(mediaServerRetryQueue)
      .where(eq(mediaServerRetryQueue.mediaUserId, member.mediaUserId));
    expect(queued).toEqual([
      expect.objectContaining({ origin: 'sharing', operation: 'disable', status: 'pending' }),
    ]);
  });
});
