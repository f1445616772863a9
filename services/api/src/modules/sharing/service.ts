// What the sharing routes do (docs/sharing.md): the event list, dismissing and acting on an
// event, a member's timeline and trust score, the exempt switch, and the member's own streams.
import { DAY_MS } from '../../time/units.js';
import type {
  MyStreams,
  SharingEvent,
  SharingEventListQuery,
  SharingMember,
} from '@usher/contracts';
import { auditCaller } from '../../audit-log/audit.js';
import type {
  SharingAction,
  SharingEventRow,
  SharingObservationRow,
} from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import type { Caller } from '../context.js';
import { carryOut, type ActionContext } from './actions.js';
import {
  findEvent,
  findMember,
  listEvents,
  liveObservationsOf,
  lockEvent,
  memberEvents,
  memberTimeline,
  planStreamLimits,
  setExempt,
  setSuspendedUntil,
  trustInputs,
  updateEvent,
} from './queries.js';
import type { Evidence } from './rules.js';
import { TRUST_HORIZON_DAYS, trustScore } from './trust.js';
import { TIMELINE_DAYS } from './watch.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toSharingEvent(row: SharingEventRow, username: string): SharingEvent {
  return {
    id: row.id,
    user: { id: row.userId, username },
    rule: row.rule,
    detectedAt: row.detectedAt.toISOString(),
    evidence: row.evidence as Evidence,
    action: row.action,
    status: row.status,
    actionTaken: row.actionTaken ?? null,
    actionedAt: iso(row.actionedAt),
    actionError: row.actionError,
    dismissedAt: iso(row.dismissedAt),
    note: row.note,
  };
}

export async function listSharingEvents(ctx: ActionContext, query: SharingEventListQuery) {
  const page = await listEvents(ctx.db, query);
  return { ...page, data: page.data.map((r) => toSharingEvent(r.event, r.username)) };
}

async function openEvent(ctx: ActionContext, id: string): Promise<SharingEventRow> {
  const found = await findEvent(ctx.db, id);
  if (!found) throw new AppError('SHARING_EVENT_NOT_FOUND', 'No such sharing event');
  if (found.event.status !== 'open') {
    throw new AppError('SHARING_EVENT_CLOSED', `The event was already ${found.event.status}`);
  }
  return found.event;
}

/**
 * Dismisses an open event: a false positive. The member's trust rises; a suspension this event
 * caused is lifted (access sync writes the state the membership wants).
 */
export async function dismissEvent(
  ctx: ActionContext,
  id: string,
  note: string,
  caller: Caller,
): Promise<SharingEvent> {
  const now = ctx.now();
  const { row, lift } = await withTransaction(ctx, async (tx) => {
    const event = await lockEvent(tx, id);
    if (!event) throw new AppError('SHARING_EVENT_NOT_FOUND', 'No such sharing event');
    if (event.status === 'dismissed') {
      throw new AppError('SHARING_EVENT_CLOSED', 'The event was already dismissed');
    }
    const updated = await updateEvent(tx, id, {
      status: 'dismissed',
      dismissedAt: now,
      dismissedBy: caller.auth.userId,
      note: note || null,
    });
    const lift = event.actionTaken === 'suspend';
    if (lift) await setSuspendedUntil(tx, event.userId, null, now);
    await auditCaller(
      tx,
      caller,
      'sharing.dismiss',
      { type: 'user', id: event.userId },
      {
        eventId: id,
        rule: event.rule,
        liftedSuspension: lift,
      },
    );
    return { row: updated, lift };
  });
  if (lift) await ctx.accessSync(row.userId, 'sharing');
  const member = await findMember(ctx.db, row.userId);
  return toSharingEvent(row, member?.username ?? '');
}

/** An admin confirms an open event with an action; a failed media-server call answers its error. */
export async function actOnEvent(
  ctx: ActionContext,
  id: string,
  action: SharingAction,
  caller: Caller,
): Promise<SharingEvent> {
  const event = await openEvent(ctx, id);
  const done = await carryOut(ctx, event, action, {
    actor: caller.actor,
    userId: caller.auth.userId,
    meta: caller.meta,
  });
  if (done.error) throw done.error;
  const member = await findMember(ctx.db, event.userId);
  return toSharingEvent(done.event, member?.username ?? '');
}

function timelineEntry(o: SharingObservationRow) {
  return {
    sessionId: o.sessionId,
    deviceId: o.deviceId,
    deviceName: o.deviceName,
    client: o.client,
    address: o.address,
    network: o.network,
    city: o.city,
    country: o.country,
    latitude: o.latitude,
    longitude: o.longitude,
    itemName: o.itemName,
    startedAt: o.startedAt.toISOString(),
    lastSeenAt: o.lastSeenAt.toISOString(),
    live: o.endedAt === null,
  };
}

async function streamLimit(ctx: ActionContext, userId: string): Promise<number> {
  const plan = await planStreamLimits(ctx.db, [userId]);
  return plan.get(userId) ?? (await ctx.settings.store.get('SHARING_MAX_STREAMS'));
}

export async function sharingMember(ctx: ActionContext, userId: string): Promise<SharingMember> {
  const member = await findMember(ctx.db, userId);
  if (!member) throw new AppError('USER_NOT_FOUND', 'No such user');
  const now = ctx.now();
  const timeline = await memberTimeline(
    ctx.db,
    userId,
    new Date(now.getTime() - TIMELINE_DAYS * DAY_MS),
    200,
  );
  const networks = new Map<string, { network: string; streams: number; lastSeenAt: Date }>();
  const devices = new Map<string, SharingMember['devices'][number] & { at: Date }>();
  const places = new Map<string, SharingMember['places'][number]>();
  for (const o of timeline) {
    const n = networks.get(o.network) ?? {
      network: o.network,
      streams: 0,
      lastSeenAt: o.lastSeenAt,
    };
    n.streams += 1;
    if (o.lastSeenAt > n.lastSeenAt) n.lastSeenAt = o.lastSeenAt;
    networks.set(o.network, n);
    const d = devices.get(o.deviceId);
    if (!d || o.lastSeenAt > d.at) {
      devices.set(o.deviceId, {
        deviceId: o.deviceId,
        name: o.deviceName,
        client: o.client,
        lastSeenAt: o.lastSeenAt.toISOString(),
        at: o.lastSeenAt,
      });
    }
    if (o.latitude !== null && o.longitude !== null) {
      const key = `${o.city ?? ''}|${o.country ?? ''}`;
      const p = places.get(key) ?? {
        city: o.city,
        country: o.country,
        latitude: o.latitude,
        longitude: o.longitude,
        streams: 0,
      };
      p.streams += 1;
      places.set(key, p);
    }
  }
  const events = await memberEvents(ctx.db, userId, 50);
  const trust = await trustInputs(
    ctx.db,
    userId,
    new Date(now.getTime() - TRUST_HORIZON_DAYS * DAY_MS),
  );
  return {
    user: { id: member.id, username: member.username },
    trustScore: trustScore(trust, now),
    exempt: member.sharingExempt,
    suspendedUntil: iso(member.sharingSuspendedUntil),
    maxStreams: await streamLimit(ctx, userId),
    windowHours: await ctx.settings.store.get('SHARING_WINDOW_HOURS'),
    timeline: timeline.map(timelineEntry),
    networks: [...networks.values()].map((n) => ({
      ...n,
      lastSeenAt: n.lastSeenAt.toISOString(),
    })),
    devices: [...devices.values()].map(({ at: _at, ...d }) => d),
    places: [...places.values()],
    events: events.map((r) => toSharingEvent(r.event, r.username)),
  };
}

/** Marks a member exempt (never judged) or not. */
export async function setSharingExempt(
  ctx: ActionContext,
  userId: string,
  exempt: boolean,
  caller: Caller,
): Promise<SharingMember> {
  await withTransaction(ctx, async (tx) => {
    const member = await findMember(tx, userId);
    if (!member) throw new AppError('USER_NOT_FOUND', 'No such user');
    await setExempt(tx, userId, exempt, ctx.now());
    await auditCaller(tx, caller, 'sharing.exempt', { type: 'user', id: userId }, { exempt });
  });
  return sharingMember(ctx, userId);
}

export async function myStreams(ctx: ActionContext, userId: string): Promise<MyStreams> {
  const member = await findMember(ctx.db, userId);
  if (!member) throw new AppError('USER_NOT_FOUND', 'No such user');
  const live = await liveObservationsOf(ctx.db, userId);
  const recent = await memberEvents(ctx.db, userId, 10);
  return {
    enabled: await ctx.settings.store.get('SHARING_ENABLED'),
    limit: await streamLimit(ctx, userId),
    streams: live.map((o) => ({
      deviceName: o.deviceName,
      client: o.client,
      itemName: o.itemName,
      city: o.city,
      country: o.country,
      home: o.home,
      startedAt: o.startedAt.toISOString(),
      lastSeenAt: o.lastSeenAt.toISOString(),
    })),
    suspendedUntil: iso(member.sharingSuspendedUntil),
    recent: recent.map(({ event }) => ({
      rule: event.rule,
      detectedAt: event.detectedAt.toISOString(),
      actionTaken: event.actionTaken ?? null,
      status: event.status,
    })),
  };
}
