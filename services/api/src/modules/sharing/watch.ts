// The `sharing_watch` job (docs/sharing.md): every 30 s while `SHARING_ENABLED`, one call lists
// the media server's sessions; the playing ones of judged members (linked, active, role user,
// not exempt) become observations; the rules judge members with a live public stream; a new
// event (one per member, rule and hour: the unique index decides, so replicas record it once)
// gets its action unless `SHARING_CONFIRM` leaves it to an admin. The scheduler's slot claim
// runs one replica per tick; the event index keeps even overlapping runs to one event.
import { HOUR_MS, DAY_MS } from '../../time/units.js';
import { recordAudit, type AuditActor, jobActor } from '../../audit-log/audit.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { MediaSession } from '../../integrations/media-server/port.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import { endSharingSuspensions } from '../membership/index.js';
import { carryOut, type ActionContext } from './actions.js';
import { sharedLocator, type Locator } from './geo.js';
import { originOf } from './network.js';
import {
  forgetObservations,
  insertEvent,
  insertObservations,
  membersByMediaId,
  openObservations,
  planStreamLimits,
  settleObservations,
  windowObservations,
  type NewObservation,
} from './queries.js';
import { judge, type Limits, type Seen } from './rules.js';

export const SHARING_JOB = 'sharing_watch';
/** Every 30 seconds (croner's six-field form). */
export const SHARING_SCHEDULE = '*/30 * * * * *';
/** How long the timeline keeps an ended stream. */
export const TIMELINE_DAYS = 30;
/** The schedule's step. */
const TICK_MS = 30_000;
/** Ticks in an hour: the slots a member's hourly re-judging is spread over. */
export const HOUR_SLOTS = HOUR_MS / TICK_MS;
const ACTOR: AuditActor = jobActor(SHARING_JOB);

export interface WatchSummary {
  [key: string]: number;
  sessions: number;
  observed: number;
  started: number;
  ended: number;
  judged: number;
  events: number;
  actioned: number;
  failed: number;
  suspensionsEnded: number;
}

export interface WatchOptions {
  locator?: Locator;
}

const keyOf = (userId: string, deviceId: string, address: string) =>
  `${userId}\u0000${deviceId}\u0000${address}`;

interface Current {
  userId: string;
  session: MediaSession;
  deviceId: string;
  address: string;
  network: string;
  home: boolean;
}

/** One tick. */
export async function runSharingWatch(
  ctx: ActionContext,
  run: Pick<JobRunContext, 'signal' | 'logger'>,
  options: WatchOptions = {},
): Promise<JobOutcome> {
  const store = ctx.settings.store;
  const summary: WatchSummary = {
    sessions: 0,
    observed: 0,
    started: 0,
    ended: 0,
    judged: 0,
    events: 0,
    actioned: 0,
    failed: 0,
    suspensionsEnded: await endSharingSuspensions(ctx),
  };
  if (!(await store.get('SHARING_ENABLED'))) {
    return { status: 'skipped', summary: { ...summary, reason: 'off' } };
  }
  let sessions: MediaSession[];
  try {
    const server = await ctx.integrations.mediaServer.get();
    sessions = await server.listSessions();
  } catch (err) {
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { status: 'skipped', summary: { ...summary, reason: 'media server not configured' } };
    }
    throw err;
  }
  summary.sessions = sessions.length;
  const now = ctx.now();
  const locator = options.locator ?? sharedLocator();

  // Who is judged: linked, active members; never admins, never the exempt.
  const playing = sessions.filter((s) => s.nowPlaying && s.userId);
  const members = await membersByMediaId(ctx.db, [...new Set(playing.map((s) => s.userId!))]);
  const judged = new Map(
    members
      .filter((m) => m.role === 'user' && m.isActive && !m.sharingExempt && m.mediaUserId)
      .map((m) => [m.mediaUserId!, m.id]),
  );

  // One current stream per (member, device, address): a device reconnecting is one stream.
  const current = new Map<string, Current>();
  for (const session of playing) {
    const userId = judged.get(session.userId!);
    const origin = originOf(session.remoteAddress);
    if (!userId || !origin) continue;
    const deviceId = session.deviceId ?? session.deviceKey ?? session.id;
    const key = keyOf(userId, deviceId, origin.address);
    const prior = current.get(key);
    if (prior && (prior.session.lastActivityAt ?? '') > (session.lastActivityAt ?? '')) continue;
    current.set(key, { userId, session, deviceId, ...origin });
  }
  summary.observed = current.size;

  const open = await openObservations(ctx.db);
  const touched: string[] = [];
  const sessionChanges: { id: string; sessionId: string; itemName: string | null }[] = [];
  const gone: string[] = [];
  for (const row of open) {
    const live = current.get(keyOf(row.userId, row.deviceId, row.address));
    if (!live) {
      gone.push(row.id);
      continue;
    }
    current.delete(keyOf(row.userId, row.deviceId, row.address));
    touched.push(row.id);
    if (live.session.id !== row.sessionId) {
      sessionChanges.push({
        id: row.id,
        sessionId: live.session.id,
        itemName: live.session.nowPlaying?.name ?? null,
      });
    }
  }
  const fresh: Omit<NewObservation, 'id'>[] = [];
  for (const c of current.values()) {
    const place = c.home ? null : await locator.locate(c.address);
    fresh.push({
      userId: c.userId,
      sessionId: c.session.id,
      deviceId: c.deviceId,
      deviceName: c.session.deviceName ?? null,
      client: c.session.client ?? null,
      address: c.address,
      network: c.network,
      home: c.home,
      city: place?.city ?? null,
      country: place?.country ?? null,
      latitude: place?.latitude ?? null,
      longitude: place?.longitude ?? null,
      itemName: c.session.nowPlaying?.name ?? null,
      startedAt: now,
      lastSeenAt: now,
      endedAt: null,
    });
  }
  await settleObservations(ctx.db, now, gone, sessionChanges);
  await insertObservations(ctx.db, fresh);
  summary.started = fresh.length;
  summary.ended = gone.length;
  if (turned(now.getTime(), 0))
    await forgetObservations(ctx.db, new Date(now.getTime() - TIMELINE_DAYS * DAY_MS));

  // Judge the members with a new public stream: only a new stream changes what the rules see.
  // A violation that goes on is recorded once an hour (a new cooldown hour): every member with a
  // live public stream is judged again once an hour, in their own slot (a stable hash of their
  // id), so each tick re-judges about 1/120 of them rather than all at the top of the hour.
  const touchedSet = new Set(touched);
  const suspects = [
    ...new Set([
      ...fresh.filter((f) => !f.home).map((f) => f.userId),
      ...open
        .filter((o) => !o.home && touchedSet.has(o.id) && rejudgeDue(o.userId, now))
        .map((o) => o.userId),
    ]),
  ];
  if (suspects.length === 0 || run.signal.aborted) return outcome(summary);
  const limits: Limits = {
    maxStreams: await store.get('SHARING_MAX_STREAMS'),
    maxNetworks: await store.get('SHARING_MAX_NETWORKS'),
    maxDevices: await store.get('SHARING_MAX_DEVICES'),
    travelKmh: await store.get('SHARING_TRAVEL_KMH'),
  };
  const since = new Date(now.getTime() - (await store.get('SHARING_WINDOW_HOURS')) * HOUR_MS);
  const windowRows = await windowObservations(ctx.db, suspects, since);
  const byMember = new Map<string, Seen[]>();
  for (const row of windowRows) {
    const list = byMember.get(row.userId) ?? [];
    list.push(row);
    byMember.set(row.userId, list);
  }
  const planLimits = await planStreamLimits(ctx.db, suspects);
  const action = await store.get('SHARING_ACTION');
  const confirm = await store.get('SHARING_CONFIRM');
  for (const userId of suspects) {
    if (run.signal.aborted) break;
    summary.judged += 1;
    const own = { ...limits, maxStreams: planLimits.get(userId) ?? limits.maxStreams };
    for (const finding of judge(byMember.get(userId) ?? [], own)) {
      const event = await insertEvent(ctx.db, {
        userId,
        rule: finding.rule,
        detectedAt: now,
        evidence: finding.evidence,
        action,
      });
      if (!event) continue;
      summary.events += 1;
      await recordAudit(ctx.db, {
        actor: ACTOR,
        action: 'sharing.detected',
        target: { type: 'user', id: userId },
        details: { eventId: event.id, rule: event.rule, action, confirm },
      });
      if (confirm || action === 'notify') continue;
      const done = await carryOut(ctx, event, action, { actor: ACTOR, userId: null });
      if (done.error) summary.failed += 1;
      else summary.actioned += 1;
    }
  }
  return outcome(summary);
}

/** Whether an hour, shifted by `offsetMs`, turned within the tick ending at `at`. */
const turned = (at: number, offsetMs: number) =>
  Math.floor((at - offsetMs) / HOUR_MS) !== Math.floor((at - offsetMs - TICK_MS) / HOUR_MS);

/** A member's re-judging slot in the hour (0 … HOUR_SLOTS − 1): FNV-1a of their id. */
export function rejudgeSlot(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i += 1) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % HOUR_SLOTS;
}

/** Whether the tick at `now` is the member's hourly re-judging tick (their slot came round). */
export function rejudgeDue(userId: string, now: Date): boolean {
  return turned(now.getTime(), rejudgeSlot(userId) * TICK_MS);
}

function outcome(summary: WatchSummary): JobOutcome {
  const busy = summary.started + summary.ended + summary.events + summary.suspensionsEnded > 0;
  return busy ? { summary } : { status: 'skipped', summary };
}

export function sharingJob(ctx: ActionContext, options: WatchOptions = {}): JobDefinition {
  return {
    name: SHARING_JOB,
    description: 'Watches live sessions for account sharing and acts on what it finds',
    schedule: SHARING_SCHEDULE,
    enabledSetting: 'SHARING_ENABLED',
    run: (run) => runSharingWatch(ctx, run, options),
  };
}
