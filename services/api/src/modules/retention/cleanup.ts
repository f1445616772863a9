// The `cleanup` job (30-settings.md §9, `CLEANUP_CRON`): retention of 10-data.md §11 in short
// batches, so no statement holds a table's rows for long and a stop lands between two batches.
import type { Database } from '../../db/client.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import { deleteBatch, tableExists } from './queries.js';
import { RETENTION_RULES, type RetentionRule } from './rules.js';

export const CLEANUP_JOB = 'cleanup';
export const CLEANUP_DEFAULT_CRON = '30 3 * * *';
/** Rows per delete statement. */
export const CLEANUP_BATCH = 1000;

export interface CleanupContext {
  db: Database;
  now: () => Date;
}

/**
 * Runs every retention rule until a batch comes back short. The cut-offs are taken once, at the
 * start, from the injected clock. Stops between batches when the run is aborted (shutdown, lost
 * lease); the next run carries on where this one stopped.
 */
export async function runCleanup(
  ctx: CleanupContext,
  run: Pick<JobRunContext, 'signal' | 'logger'>,
  options: { batch?: number; rules?: readonly RetentionRule[] } = {},
): Promise<JobOutcome> {
  const batch = options.batch ?? CLEANUP_BATCH;
  const now = ctx.now();
  const removed: Record<string, number> = {};
  let statements = 0;
  for (const rule of options.rules ?? RETENTION_RULES) {
    if (run.signal.aborted) break;
    if (rule.optional && !(await tableExists(ctx.db, rule.table))) continue;
    let count = 0;
    for (;;) {
      const n = await deleteBatch(ctx.db, rule, now, batch);
      statements += 1;
      count += n;
      if (n < batch || run.signal.aborted) break;
    }
    removed[rule.name] = count;
  }
  const total = Object.values(removed).reduce((a, b) => a + b, 0);
  if (total > 0) run.logger.info({ removed, total }, 'retention cleanup removed rows');
  const summary = { removed, total, statements, cutoffAt: now.toISOString() };
  return total === 0 ? { status: 'skipped', summary } : { summary };
}

export function cleanupJob(ctx: CleanupContext): JobDefinition {
  return {
    name: CLEANUP_JOB,
    description: 'Deletes rows past their retention (codes, rate limits, old runs, audit log, …)',
    schedule: CLEANUP_DEFAULT_CRON,
    scheduleSetting: 'CLEANUP_CRON',
    run: (run) => runCleanup(ctx, run),
  };
}
