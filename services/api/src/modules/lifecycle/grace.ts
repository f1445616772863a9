// The grace period after a membership ends (docs/lifecycle.md): with
// `MEDIA_ACCOUNT_DELETE_AFTER_DAYS` = N > 0, the `media_account_cleanup` job warns an expired
// member three days before their media-server account goes, then deletes that account — never
// the Usher account or its history — through the retry queue like every media-server write. A
// renewal in between moves the membership end, so the warning no longer matches and the account
// stays (the renewal has re-enabled it already).
import { DAY_MS } from '../../time/units.js';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit, type AuditActor, jobActor } from '../../audit-log/audit.js';
import { withTransaction } from '../../db/transaction.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { deletionNotice, readReminderTexts } from './messages.js';
import { localeOf, openChannels, sendToMember, type Candidate } from './reminders.js';
import {
  claimDeletionWarning,
  deletionsDue,
  lockMediaLink,
  membersToWarn,
  settleDeleteRetry,
  unlinkForDeletion,
} from './queries.js';

export const GRACE_JOB = 'media_account_cleanup';
/** Hourly at minute 45: off the minutes of `expiry_check` and `expiry_reminders`. */
export const GRACE_CRON = '45 * * * *';
/** The warning goes out this many days before the deletion, and the deletion waits for it. */
export const WARNING_DAYS = 3;
/** Members read per query. */
const BATCH = 200;
const ACTOR: AuditActor = jobActor(GRACE_JOB);

type GraceContext = Pick<
  ModuleContext,
  'db' | 'now' | 'settings' | 'integrations' | 'notify' | 'config' | 'logger'
>;

export interface GraceSummary {
  [key: string]: number;
  warned: number;
  deleted: number;
  queued: number;
  sent: number;
  failed: number;
}

/**
 * One run: first the warnings (members whose deletion falls within three days, warned once per
 * membership end), then the deletions (warned at least three days ago, at least N days past the
 * end, not renewed since). Both stages read the users table in pages.
 */
export async function runGrace(
  ctx: GraceContext,
  run: Pick<JobRunContext, 'signal' | 'logger'>,
): Promise<JobOutcome> {
  const days = Number(await ctx.settings.store.get('MEDIA_ACCOUNT_DELETE_AFTER_DAYS'));
  const summary: GraceSummary = { warned: 0, deleted: 0, queued: 0, sent: 0, failed: 0 };
  if (!(days > 0)) {
    return { status: 'skipped', summary: { ...summary, reason: 'deletion is off' } };
  }
  const now = ctx.now();
  await warn(ctx, run, days, now, summary);
  if (!run.signal.aborted) await removeAccounts(ctx, run, days, now, summary);
  const acted = summary.warned + summary.deleted + summary.queued;
  if (acted) run.logger.info(summary, 'media account grace period');
  return acted ? { summary } : { status: 'skipped', summary };
}

interface WarnRow {
  id: string;
  username: string;
  email: string | null;
  messengerId: number | null;
  locale: string | null;
  expiresAt: Date | null;
  notifyEmail: boolean;
  notifyMessenger: boolean;
  isActive: boolean;
  mediaUserId: string | null;
}

/** Members to warn: expired, linked, deletion within three days, not warned for this end. */
async function warn(
  ctx: GraceContext,
  run: Pick<JobRunContext, 'signal'>,
  days: number,
  now: Date,
  summary: GraceSummary,
): Promise<void> {
  // Deletion at end + N days; the warning from WARNING_DAYS before that (and never before the end).
  const endedBy = new Date(now.getTime() - Math.max(0, days - WARNING_DAYS) * DAY_MS);
  const open = await openChannels(ctx);
  const texts = await readReminderTexts(ctx.settings.store);
  let after: { expiresAt: Date; id: string } | null = null;
  for (;;) {
    const page: WarnRow[] = await membersToWarn(ctx.db, { now, endedBy }, after, BATCH);
    for (const row of page) {
      if (run.signal.aborted) return;
      const member = { ...row, expiresAt: row.expiresAt! } as Candidate & {
        isActive: boolean;
        mediaUserId: string;
      };
      const claimed = await claimDeletionWarning(ctx.db, member, now);
      if (!claimed) continue; // another replica or run warned this end
      summary.warned += 1;
      // A switched-off Usher account is not written to; its account still goes after the grace.
      if (!member.isActive) continue;
      const deleteAt = new Date(
        Math.max(member.expiresAt.getTime() + days * DAY_MS, now.getTime() + WARNING_DAYS * DAY_MS),
      );
      const notice = deletionNotice(texts, {
        username: member.username,
        expiresAt: member.expiresAt,
        deleteAt,
        locale: localeOf(member.locale),
      });
      const outcomes = await sendToMember(
        ctx,
        open,
        member,
        notice,
        texts,
        {
          kind: 'deletion_warning',
          ref: member.expiresAt.toISOString(),
          expiresAt: member.expiresAt,
        },
        {
          daysLeft: 0,
          names: { notice: 'deletion_warning', event: 'membership.deletion_warning' },
          now,
        },
      );
      summary.sent += outcomes.filter((o) => o.outcome === 'sent').length;
      summary.failed += outcomes.filter((o) => o.outcome === 'failed').length;
    }
    if (page.length < BATCH) return;
    const last = page[page.length - 1]!;
    after = { expiresAt: last.expiresAt!, id: last.id };
  }
}

/** Deletes the media accounts whose grace ended: warned long enough ago, still not renewed. */
async function removeAccounts(
  ctx: GraceContext,
  run: Pick<JobRunContext, 'signal'>,
  days: number,
  now: Date,
  summary: GraceSummary,
): Promise<void> {
  const warnedBy = new Date(now.getTime() - WARNING_DAYS * DAY_MS);
  const endedBy = new Date(now.getTime() - days * DAY_MS);
  let after: { expiresAt: Date; userId: string } | null = null;
  for (;;) {
    const due = await deletionsDue(ctx.db, { warnedBy, endedBy }, after, BATCH);
    for (const row of due) {
      if (run.signal.aborted) return;
      const queued = await withTransaction(ctx, async (tx) => {
        // The member's row, locked: a renewal committing now either went first (the end moved:
        // nothing to delete) or waits for this transaction.
        const member = await lockMediaLink(tx, row.userId);
        if (
          !member?.mediaUserId ||
          member.expiresAt?.getTime() !== row.expiresAt.getTime() ||
          member.expiresAt.getTime() > endedBy.getTime()
        ) {
          return null;
        }
        const retryId = uuidv7();
        await unlinkForDeletion(tx, { ...row, mediaUserId: member.mediaUserId, retryId }, now);
        await recordAudit(tx, {
          actor: ACTOR,
          action: 'user.media_account_deleted',
          target: { type: 'user', id: row.userId },
          details: {
            username: member.username,
            mediaUserId: member.mediaUserId,
            expiresAt: row.expiresAt.toISOString(),
            graceDays: days,
          },
        });
        return { retryId, mediaUserId: member.mediaUserId };
      });
      // Renewed or relinked since the page was read: nothing to delete for this end.
      if (!queued) continue;
      try {
        await (await ctx.integrations.mediaServer.get()).deleteUser(queued.mediaUserId);
        await settleDeleteRetry(ctx.db, queued.retryId, { done: true }, ctx.now());
        summary.deleted += 1;
      } catch (err) {
        // Down, refused, not configured: the committed row is the retry worker's now.
        await settleDeleteRetry(
          ctx.db,
          queued.retryId,
          { error: String((err as Error).message) },
          ctx.now(),
        );
        summary.queued += 1;
      }
    }
    if (due.length < BATCH) return;
    after = due[due.length - 1]!;
  }
}

export function graceJob(ctx: GraceContext): JobDefinition {
  return {
    name: GRACE_JOB,
    description:
      'Warns expired members, then deletes their media accounts after MEDIA_ACCOUNT_DELETE_AFTER_DAYS',
    schedule: GRACE_CRON,
    run: (run) => runGrace(ctx, run),
  };
}
