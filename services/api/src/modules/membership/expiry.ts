// The `expiry_check` job (30-settings.md §9): access sync (20-api.md §8.2) for members whose
// membership has ended while their media account is still enabled.
import { IntegrationError } from '../../integrations/errors.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { expiredEnabledMembers } from './queries.js';
import { endSharingSuspensions } from './suspensions.js';

export const EXPIRY_JOB = 'expiry_check';
/** 30-settings.md §4.8 `EXPIRY_CHECK_CRON` default: hourly. */
export const EXPIRY_DEFAULT_CRON = '0 * * * *';

type ExpiryContext = Pick<ModuleContext, 'db' | 'now' | 'mediaAccess' | 'accessSync'>;

/**
 * Exactly the members to disable: role user, linked, `expires_at` passed, `media_disabled`
 * false. Members with a pending access row in the retry queue are left to the retry worker, so
 * this hourly run never resets that row's back-off (the worker applies the same desired state).
 */
async function dueMembers(ctx: ExpiryContext): Promise<{ ids: string[]; waiting: number }> {
  const rows = await expiredEnabledMembers(ctx.db, ctx.now());
  return {
    ids: rows.filter((r) => !r.waiting).map((r) => r.id),
    waiting: rows.filter((r) => r.waiting).length,
  };
}

/**
 * One run: each due member goes through the shared access sync (no transaction is open here, so
 * none is held while the media server answers). It re-reads the row under the per-user lock and
 * re-checks after the call — so a renewal that lands meanwhile, even during the call, wins — and a
 * second run (or a second replica) finds the write already declared and nothing left to do.
 */
export async function runExpiryCheck(
  ctx: ExpiryContext,
  run: Pick<JobRunContext, 'signal' | 'logger'>,
): Promise<JobOutcome> {
  try {
    await ctx.mediaAccess();
  } catch (err) {
    // Not configured: the job has nothing it could do (30-settings.md §9 "runs when").
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { status: 'skipped', summary: { reason: 'media server not configured' } };
    }
    throw err;
  }
  // Suspensions for account sharing whose time is up (docs/sharing.md): access comes back.
  const suspensionsEnded = await endSharingSuspensions(ctx);
  const { ids, waiting } = await dueMembers(ctx);
  const summary = { checked: ids.length, disabled: 0, queued: 0, unchanged: 0, waiting };
  for (const id of ids) {
    if (run.signal.aborted) break;
    const outcome = await ctx.accessSync(id, 'expiry');
    if (outcome === 'applied') summary.disabled += 1;
    else if (outcome === 'queued') summary.queued += 1;
    else summary.unchanged += 1;
  }
  if (summary.disabled || summary.queued) run.logger.info(summary, 'expired members disabled');
  if (suspensionsEnded > 0) return { summary: { ...summary, suspensionsEnded } };
  return ids.length === 0 && waiting === 0 ? { status: 'skipped', summary } : { summary };
}

export function expiryJob(ctx: ExpiryContext): JobDefinition {
  return {
    name: EXPIRY_JOB,
    description: 'Disables the media accounts of members whose membership has ended',
    schedule: EXPIRY_DEFAULT_CRON,
    scheduleSetting: 'EXPIRY_CHECK_CRON',
    run: (run) => runExpiryCheck(ctx, run),
  };
}
