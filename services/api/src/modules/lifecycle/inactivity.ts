// Inactivity (docs/lifecycle.md): with `INACTIVITY_DISABLE_DAYS` = D > 0, the `inactivity_watch`
// job warns a member with no playback for D days, and switches their media access off seven days
// later unless they played in between or an admin exempted them. Playback comes from the
// Playback Reporting plugin: without it the job does nothing — a missing plugin is never taken
// for a community that stopped watching.
import { DAY_MS } from '../../time/units.js';
import { recordAudit, type AuditActor, jobActor } from '../../audit-log/audit.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../../integrations/errors.js';
import { parsePlaybackDate } from '../../integrations/media-server/playback.js';
import { lastPlaysSql } from '../../integrations/media-server/playback-sql.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { inactivityNotice, readReminderTexts } from './messages.js';
import { localeOf, openChannels, sendToMember, type Candidate } from './reminders.js';
import {
  endWatch,
  lockAccessSwitches,
  setExempt,
  startWatch,
  switchOffForInactivity,
  usernameOf,
  watchedMembers,
} from './queries.js';

export const INACTIVITY_JOB = 'inactivity_watch';
/** Daily at 04:15: after the night's plays are in, off the other jobs' minutes. */
export const INACTIVITY_CRON = '15 4 * * *';
/** Days between the warning and the switch-off. */
export const INACTIVITY_NOTICE_DAYS = 7;
const BATCH = 500;
const ACTOR: AuditActor = jobActor(INACTIVITY_JOB);

type InactivityContext = Pick<
  ModuleContext,
  'db' | 'now' | 'settings' | 'integrations' | 'notify' | 'config' | 'logger' | 'accessSync'
>;

interface Watched extends Candidate {
  mediaUserId: string;
  warnedAt: Date | null;
  disabledAt: Date | null;
}

/** Each media user's last play since `since`, from the plugin; null when it cannot be read. */
async function lastPlays(
  ctx: InactivityContext,
  since: Date,
): Promise<Map<string, Date> | { unavailable: string }> {
  try {
    const server = await ctx.integrations.mediaServer.get();
    const result = await server.playbackQuery(lastPlaysSql(since, server.timeZone));
    const user = result.columns.indexOf('UserId');
    const last = result.columns.indexOf('LastPlayed');
    const plays = new Map<string, Date>();
    for (const row of result.rows) {
      const iso = parsePlaybackDate(row[last] ?? '', server.timeZone);
      if (iso) plays.set((row[user] ?? '').toLowerCase(), new Date(iso));
    }
    return plays;
  } catch (err) {
    if (err instanceof IntegrationError) return { unavailable: err.message };
    throw err;
  }
}

export interface InactivitySummary {
  [key: string]: number;
  checked: number;
  warned: number;
  disabled: number;
  reset: number;
}

export async function runInactivity(
  ctx: InactivityContext,
  run: Pick<JobRunContext, 'signal' | 'logger'>,
): Promise<JobOutcome> {
  const days = Number(await ctx.settings.store.get('INACTIVITY_DISABLE_DAYS'));
  const summary: InactivitySummary = { checked: 0, warned: 0, disabled: 0, reset: 0 };
  if (!(days > 0)) return { status: 'skipped', summary: { ...summary, reason: 'off' } };
  const now = ctx.now();
  const idleSince = new Date(now.getTime() - days * DAY_MS);
  // Far enough back to see a play after any open warning too.
  const since = new Date(now.getTime() - Math.max(days, INACTIVITY_NOTICE_DAYS + 1) * DAY_MS);
  const plays = await lastPlays(ctx, since);
  if (!(plays instanceof Map)) {
    run.logger.warn({ reason: plays.unavailable }, 'inactivity watch: no playback data');
    return { status: 'skipped', summary: { ...summary, reason: 'no playback data' } };
  }
  const open = await openChannels(ctx);
  const texts = await readReminderTexts(ctx.settings.store);
  let after: string | null = null;
  for (;;) {
    const page: Watched[] = (await watchedMembers(ctx.db, { now, idleSince }, after, BATCH)).map(
      (r) => ({ ...r, expiresAt: r.expiresAt ?? now, mediaUserId: r.mediaUserId! }),
    );
    for (const member of page) {
      if (run.signal.aborted) break;
      summary.checked += 1;
      const played = plays.get(member.mediaUserId.toLowerCase()) ?? null;
      await watchOne(ctx, member, played, { now, idleSince, days, open, texts }, summary);
    }
    if (run.signal.aborted || page.length < BATCH) break;
    after = page[page.length - 1]!.id;
  }
  const acted = summary.warned + summary.disabled + summary.reset;
  if (acted) run.logger.info(summary, 'inactivity watch');
  return acted ? { summary } : { status: 'skipped', summary };
}

async function watchOne(
  ctx: InactivityContext,
  member: Watched,
  played: Date | null,
  at: {
    now: Date;
    idleSince: Date;
    days: number;
    open: Awaited<ReturnType<typeof openChannels>>;
    texts: Awaited<ReturnType<typeof readReminderTexts>>;
  },
  summary: InactivitySummary,
): Promise<void> {
  const { now } = at;
  const switchedOff = member.disabledAt !== null;
  // Played within D days, or since the warning: whatever the watch held is over.
  const active = played !== null && played > at.idleSince;
  const playedSinceWarning =
    played !== null && member.warnedAt !== null && played > member.warnedAt;
  if (member.warnedAt !== null && (active || playedSinceWarning || switchedOff)) {
    // A member switched off and then switched on again by an admin (the page only holds members
    // whose access is on) starts a new watch, like one who played.
    await endWatch(ctx.db, member.id);
    summary.reset += 1;
    if (active || playedSinceWarning) return;
    member.warnedAt = null;
  }
  if (active) return;
  if (member.warnedAt === null) {
    if (!(await startWatch(ctx.db, member.id, now))) return;
    summary.warned += 1;
    const notice = inactivityNotice(at.texts, {
      username: member.username,
      days: at.days,
      disableAt: new Date(now.getTime() + INACTIVITY_NOTICE_DAYS * DAY_MS),
      locale: localeOf(member.locale),
    });
    await sendToMember(
      ctx,
      at.open,
      member,
      notice,
      at.texts,
      { kind: 'inactivity_warning', ref: now.toISOString() },
      {
        daysLeft: 0,
        names: { notice: 'inactivity_warning', event: 'membership.inactivity_warning' },
        now,
      },
    );
    return;
  }
  if (member.warnedAt.getTime() > now.getTime() - INACTIVITY_NOTICE_DAYS * DAY_MS) return;
  const switched = await withTransaction(ctx, async (tx) => {
    const row = await lockAccessSwitches(tx, member.id);
    if (!row || row.mediaAccessDisabled || row.inactivityExempt) return false;
    await switchOffForInactivity(tx, member.id, now);
    await recordAudit(tx, {
      actor: ACTOR,
      action: 'user.inactivity_disabled',
      target: { type: 'user', id: member.id },
      details: {
        username: member.username,
        lastPlayedAt: played?.toISOString() ?? null,
        warnedAt: member.warnedAt!.toISOString(),
        days: at.days,
      },
    });
    return true;
  });
  if (!switched) return;
  summary.disabled += 1;
  // After the commit, as every access change: a failure is queued for the retry worker.
  await ctx.accessSync(member.id, 'inactivity');
}

/** `PUT /admin/users/:id/inactivity-exempt`: never switched off for inactivity (or again). */
export async function setInactivityExempt(
  ctx: Pick<ModuleContext, 'db' | 'now'>,
  adminId: string,
  userId: string,
  exempt: boolean,
  meta: RequestMeta,
): Promise<{ userId: string; exempt: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const adminName = await usernameOf(tx, adminId);
    const row = await lockAccessSwitches(tx, userId);
    if (!row || row.role !== 'user') throw new AppError('NOT_FOUND', 'No such member');
    await setExempt(tx, userId, exempt, ctx.now());
    // An open warning ends with the exemption.
    if (exempt) await endWatch(tx, userId);
    if (row.inactivityExempt !== exempt) {
      await recordAudit(tx, {
        actor: { type: 'admin', id: adminId, label: adminName ?? 'admin' },
        action: 'user.inactivity_exempt',
        target: { type: 'user', id: userId },
        details: { before: row.inactivityExempt, after: exempt },
        ip: meta.ip,
        requestId: meta.requestId,
      });
    }
    return { userId, exempt };
  });
}

export function inactivityJob(ctx: InactivityContext): JobDefinition {
  return {
    name: INACTIVITY_JOB,
    description:
      'Warns members without playback for INACTIVITY_DISABLE_DAYS, switches them off 7 days later',
    schedule: INACTIVITY_CRON,
    run: (run) => runInactivity(ctx, run),
  };
}
