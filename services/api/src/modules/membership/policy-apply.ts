// The `media_policy_apply` job (30-settings.md §4.2 and §9, manual only): writes the member policy
// template to every linked member, so a changed template reaches the members created before it.
// Each member goes through the steps of access sync (docs/architecture.md, "Media access sync"):
// under the per-user media lock the desired `IsDisabled` is declared and committed, the whole
// policy (template + that state, the adapter forcing not-admin, no deletion, hidden) is written
// with no transaction open, then the write is settled under the lock again. A failed write is
// queued (`policy` row, origin `policy_apply`) for the retry worker, which writes the template as
// it is then.
import type { Database } from '../../db/client.js';
import { IntegrationError } from '../../integrations/errors.js';
import {
  AdministratorPolicyRefused,
  type MediaServer,
  type PolicyPatch,
} from '../../integrations/media-server/index.js';
import { writeRunProgress } from '../../scheduler/progress.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import {
  declareWrite,
  desiredDisabled,
  managed,
  withMediaLock,
  writeUntilSettled,
  type MediaAccessWriter,
} from './access-sync.js';
import { readMemberPolicy } from './provision.js';
import {
  countLinkedMembers,
  findUser,
  linkedMembersAfter,
  queuePolicyRetry,
  supersedeRetries,
} from './queries.js';

export const POLICY_APPLY_JOB = 'media_policy_apply';
/** Linked members read per page (keyset on the id): the table is never loaded whole. */
export const POLICY_APPLY_PAGE = 50;
/** Media-server writes in flight at once. */
export const POLICY_APPLY_CONCURRENCY = 4;

export type PolicyApplyContext = Pick<ModuleContext, 'db' | 'now' | 'logger' | 'integrations'> & {
  settings: Pick<ModuleContext['settings'], 'store'>;
};

/**
 * The access switch that writes the whole member policy: the template with `IsDisabled` set to
 * the state being declared. The one policy writer of the member template after creation (the
 * forced sync with `policy`, this job, the retry worker's `policy` rows).
 */
export function memberPolicyWriter(server: MediaServer, template: PolicyPatch): MediaAccessWriter {
  return {
    setDisabled: (mediaUserId, disabled) =>
      server.updatePolicy(mediaUserId, { ...template, disabled }),
  };
}

/** The writer built from the current settings (the template as it is now). */
export async function currentPolicyWriter(ctx: PolicyApplyContext): Promise<MediaAccessWriter> {
  const server = await ctx.integrations.mediaServer.get();
  return memberPolicyWriter(server, await readMemberPolicy(ctx.settings.store));
}

/**
 * What one member's write ended with: `applied`; `skipped` (no longer a linked member, or a
 * media-server administrator, never written); `queued` (the write failed: the retry queue has it).
 */
export type PolicyApplyOutcome = 'applied' | 'skipped' | 'queued';

/** Writes the template with the member's derived `IsDisabled` (an expired member stays off). */
export async function applyMemberPolicy(
  ctx: PolicyApplyContext,
  writer: MediaAccessWriter,
  userId: string,
): Promise<PolicyApplyOutcome> {
  const first = await withMediaLock(ctx.db, userId, async (tx) => {
    const row = await findUser(tx, userId);
    if (!managed(row)) return null;
    return declareWrite(tx, row, desiredDisabled(row, ctx.now()), ctx.now());
  });
  if (!first) return 'skipped';
  return writeUntilSettled<PolicyApplyOutcome>(ctx.db, async () => writer, first, ctx, {
    settled: async (tx) => {
      // The whole policy with the desired state stands: a pending template or access retry of
      // this account has nothing left to do.
      await supersedeRetries(tx, first.mediaUserId, `superseded by ${POLICY_APPLY_JOB}`);
      return 'applied';
    },
    gone: async () => 'skipped',
    failed: async (tx, _desired, err) => {
      if (err instanceof AdministratorPolicyRefused) {
        ctx.logger.info({ userId }, 'not written: a media-server administrator');
        return 'skipped';
      }
      ctx.logger.warn({ userId, err: err.message }, 'member policy write failed; queued for retry');
      await queuePolicyRetry(tx, { userId, mediaUserId: first.mediaUserId }, err.message);
      return 'queued';
    },
  });
}

/** Runs `fn` over `items` with at most `limit` calls pending at once. */
async function eachBounded<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Progress in the run's summary (`{progress}`, 60-web.md §5) while the writes travel: the writes
 * are chained so an older count never lands after a newer one, and coalesced (one pending write,
 * always of the latest count) so four lanes do not make four updates per member.
 */
class ProgressReport {
  private chain: Promise<void> = Promise.resolve();
  private queued = false;

  constructor(
    private readonly db: Database,
    private readonly run: Pick<JobRunContext, 'runId' | 'logger'>,
    readonly progress: { membersTotal: number; membersDone: number },
  ) {}

  report(): void {
    if (this.queued) return;
    this.queued = true;
    this.chain = this.chain.then(async () => {
      this.queued = false;
      try {
        await writeRunProgress(this.db, this.run.runId, { ...this.progress });
      } catch (err) {
        // Progress is a courtesy to the admin watching: a failed update must not stop the writes.
        this.run.logger.warn({ err }, 'could not record the progress of the run');
      }
    });
  }

  settled(): Promise<void> {
    return this.chain;
  }
}

/** One run over every linked member, a page at a time, `concurrency` writes in flight. */
export async function runPolicyApply(
  ctx: PolicyApplyContext,
  run: Pick<JobRunContext, 'runId' | 'signal' | 'logger'>,
  options: { pageSize?: number; concurrency?: number } = {},
): Promise<JobOutcome> {
  let writer: MediaAccessWriter;
  try {
    // One template for the whole run, read once: every member gets the same policy.
    writer = await currentPolicyWriter(ctx);
  } catch (err) {
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { status: 'skipped', summary: { reason: 'media server not configured' } };
    }
    throw err;
  }
  const pageSize = options.pageSize ?? POLICY_APPLY_PAGE;
  const concurrency = options.concurrency ?? POLICY_APPLY_CONCURRENCY;
  const report = new ProgressReport(ctx.db, run, {
    membersTotal: await countLinkedMembers(ctx.db),
    membersDone: 0,
  });
  report.report();
  const counts = { applied: 0, skipped: 0, queued: 0, failed: 0 };
  let after: string | null = null;
  while (!run.signal.aborted) {
    const page = await linkedMembersAfter(ctx.db, after, pageSize);
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    await eachBounded(page, concurrency, async ({ id }) => {
      // A shutdown stops at the next member; the run is recorded `abandoned` and can run again.
      if (run.signal.aborted) return;
      try {
        counts[await applyMemberPolicy(ctx, writer, id)] += 1;
      } catch (err) {
        // Not a media-server failure (those are queued): the database failed under this member.
        counts.failed += 1;
        run.logger.error({ err, userId: id }, 'could not apply the member policy');
      }
      report.progress.membersDone += 1;
      report.report();
    });
  }
  await report.settled();
  const summary = { progress: { ...report.progress }, ...counts };
  run.logger.info(summary, 'member policy applied');
  if (counts.failed > 0 && counts.failed === report.progress.membersDone) {
    throw new Error(`The member policy could not be applied to any of ${counts.failed} members`);
  }
  if (report.progress.membersTotal === 0) {
    return { status: 'skipped', summary: { reason: 'no linked members', ...summary } };
  }
  return { summary };
}

export function policyApplyJob(ctx: PolicyApplyContext): JobDefinition {
  return {
    name: POLICY_APPLY_JOB,
    description: 'Writes the member policy template to every linked member',
    // Never fires: `manualOnly` keeps it off the timer (the field is required).
    schedule: '0 0 1 1 *',
    manualOnly: true,
    run: (run) => runPolicyApply(ctx, run),
  };
}
