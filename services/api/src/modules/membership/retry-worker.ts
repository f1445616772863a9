// The `media_server_retry` job (30-settings.md §9, 10-data.md §9): re-applies media-server changes
// that failed after Usher had committed its own, with back-off, until they succeed or give up.
import { Counter, type Registry } from 'prom-client';
import { type RetryRow } from '../../db/schema/index.js';
import { IntegrationError } from '../../integrations/errors.js';
import { AdministratorPolicyRefused } from '../../integrations/media-server/index.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import {
  declareWrite,
  desiredDisabled,
  withMediaLock,
  writeUntilSettled,
  type MediaAccessWriter,
} from './access-sync.js';
import { currentPolicyWriter, type PolicyApplyContext } from './policy-apply.js';
import {
  dueRetryIds,
  findRetry,
  findUser,
  finishRetry,
  giveUpRetry,
  lockPendingRetry,
  ownerOfMediaUser,
  rescheduleRetry,
} from './queries.js';
import type { Tx } from '../../db/client.js';
import { withTransaction } from '../../db/transaction.js';

export const RETRY_JOB = 'media_server_retry';
/** Every 30 s (croner's six-field form with seconds). */
export const RETRY_CRON = '*/30 * * * * *';
/** Rows handled per run. */
export const RETRY_BATCH = 50;
/**
 * Delay before the next retry after failed retry n (1-based): 2 min, 10 min, 1 h, 6 h, 24 h.
 * The first retry is due 30 s after the original failure (set by whoever queued the row); when
 * retry number `MAX_RETRIES` fails the row gives up.
 */
export const RETRY_DELAYS_SECONDS = [120, 600, 3600, 21_600, 86_400] as const;
export const MAX_RETRIES = RETRY_DELAYS_SECONDS.length + 1;

type WorkerContext = Pick<ModuleContext, 'db' | 'now' | 'logger' | 'mediaAccess' | 'integrations'> &
  PolicyApplyContext;

export interface RetryWorkerDeps {
  /** `usher_media_retry_gave_up_total`. */
  gaveUp: Counter<'operation'>;
}

export function retryMetrics(registry: Registry): RetryWorkerDeps {
  return {
    gaveUp: new Counter({
      name: 'usher_media_retry_gave_up_total',
      help: 'Media-server retries that gave up after the last attempt, by operation',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
  };
}

type Outcome = 'done' | 'retry' | 'gave_up' | 'skipped';

/** Marks a row done; `note` says why no call was needed, when none was made. */
function finish(tx: Tx, row: RetryRow, note: string | null = null): Promise<void> {
  return finishRetry(tx, row, note);
}

/** Records a failed retry: the next one per the back-off, or `gave_up` after the last. */
async function failed(
  ctx: WorkerContext,
  deps: RetryWorkerDeps,
  tx: Tx,
  row: RetryRow,
  err: unknown,
): Promise<Outcome> {
  const attempts = row.attempts + 1;
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  if (attempts >= MAX_RETRIES) {
    await giveUpRetry(tx, row.id, attempts, message);
    deps.gaveUp.inc({ operation: row.operation });
    ctx.logger.error(
      { retryId: row.id, operation: row.operation, mediaUserId: row.mediaUserId, attempts },
      'media-server retry gave up; the change must be made by hand',
    );
    return 'gave_up';
  }
  const delay = RETRY_DELAYS_SECONDS[attempts - 1]!;
  await rescheduleRetry(tx, row.id, attempts, message, delay);
  ctx.logger.warn(
    { retryId: row.id, operation: row.operation, attempts, err: message },
    'media-server retry failed; trying again later',
  );
  return 'retry';
}

/** Re-reads the row in the transaction: another path may have completed or replaced it. */
function stillPending(tx: Tx, row: RetryRow): Promise<RetryRow | null> {
  return lockPendingRetry(tx, row.id);
}

const GONE = 'no call needed: the user, the link or the membership is gone';

/**
 * enable/disable: the desired state is recomputed from the user row under the per-user media
 * lock (the one access sync takes) and written with no transaction open, re-checked afterwards
 * like access sync does (`writeUntilSettled`), so a stale disable never overwrites a fresh
 * renewal; a user or link that is gone, or an admin's account, completes the row without a call.
 * policy (`media_policy_apply` failures): the same steps, writing the whole member template as
 * it is now with that state; a media-server administrator completes the row without a write.
 */
async function applyAccess(
  ctx: WorkerContext,
  deps: RetryWorkerDeps,
  queued: RetryRow,
): Promise<Outcome> {
  const writer: () => Promise<MediaAccessWriter> =
    queued.operation === 'policy' ? () => currentPolicyWriter(ctx) : ctx.mediaAccess;
  const userId = queued.userId;
  if (!userId) {
    // The user was deleted (user_id set null): nothing to lock and nothing to write.
    return withTransaction(ctx, async (tx) => {
      const row = await stillPending(tx, queued);
      if (!row) return 'skipped';
      await finish(tx, row, GONE);
      return 'done';
    });
  }
  const first = await withMediaLock(ctx.db, userId, async (tx) => {
    const row = await stillPending(tx, queued);
    if (!row) return 'skipped' as const;
    const user = await findUser(tx, userId);
    if (!user || user.mediaUserId !== row.mediaUserId || user.role !== 'user') {
      await finish(tx, row, GONE);
      return 'done' as const;
    }
    // Written even when `media_disabled` already says so: the server may not have it.
    return declareWrite(tx, user, desiredDisabled(user, ctx.now()), ctx.now());
  });
  if (typeof first === 'string') return first;
  return writeUntilSettled<Outcome>(ctx.db, writer, first, ctx, {
    settled: async (tx) => {
      const row = await stillPending(tx, queued);
      if (!row) return 'skipped';
      await finish(tx, row);
      return 'done';
    },
    gone: async (tx) => {
      const row = await stillPending(tx, queued);
      if (!row) return 'skipped';
      await finish(tx, row, GONE);
      return 'done';
    },
    // Every failure of the call (down, refused, settings changed) counts as one failed retry.
    failed: async (tx, _desired, err) => {
      const row = await stillPending(tx, queued);
      if (!row) return 'skipped';
      if (err instanceof AdministratorPolicyRefused) {
        await finish(tx, row, 'not written: a media-server administrator');
        return 'done';
      }
      return failed(ctx, deps, tx, row, err);
    },
  });
}

/**
 * delete: idempotent (the adapter counts an unknown user as deleted). Skipped without a call when
 * the media user is linked to an account again (an admin bound it meanwhile). The call runs with
 * no transaction open (docs/architecture.md): one short transaction checks the row, a second
 * records the outcome on it, unless another run completed it meanwhile.
 */
async function applyDelete(
  ctx: WorkerContext,
  deps: RetryWorkerDeps,
  queued: RetryRow,
): Promise<Outcome> {
  const due = await withTransaction(ctx, async (tx) => {
    const row = await stillPending(tx, queued);
    if (!row) return 'skipped' as const;
    const owner = await ownerOfMediaUser(tx, row.mediaUserId);
    if (owner) {
      await finish(tx, row, 'not deleted: the media user is linked to an account again');
      return 'done' as const;
    }
    return row;
  });
  if (typeof due === 'string') return due;
  let failure: { err: unknown } | null = null;
  try {
    await (await ctx.integrations.mediaServer.get()).deleteUser(due.mediaUserId);
  } catch (err) {
    // As for access changes: any failure is one failed retry.
    failure = { err };
  }
  return withTransaction(ctx, async (tx) => {
    const row = await stillPending(tx, due);
    if (!row) return 'skipped';
    if (failure) return failed(ctx, deps, tx, row, failure.err);
    await finish(tx, row);
    return 'done';
  });
}

/** One run: up to `RETRY_BATCH` due rows, oldest due first. */
export async function runRetryWorker(
  ctx: WorkerContext,
  deps: RetryWorkerDeps,
  run: Pick<JobRunContext, 'signal'>,
): Promise<JobOutcome> {
  try {
    await ctx.integrations.mediaServer.get();
  } catch (err) {
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { status: 'skipped', summary: { reason: 'media server not configured' } };
    }
    throw err;
  }
  const due = await dueRetryIds(ctx.db, RETRY_BATCH);
  const summary = { due: due.length, done: 0, retry: 0, gaveUp: 0, skipped: 0 };
  for (const { id } of due) {
    if (run.signal.aborted) break;
    const row = await findRetry(ctx.db, id);
    if (!row || row.status !== 'pending') continue;
    const outcome =
      row.operation === 'delete'
        ? await applyDelete(ctx, deps, row)
        : await applyAccess(ctx, deps, row);
    if (outcome === 'gave_up') summary.gaveUp += 1;
    else summary[outcome] += 1;
  }
  return due.length === 0 ? { status: 'skipped', summary } : { summary };
}

export function retryWorkerJob(ctx: WorkerContext, deps: RetryWorkerDeps): JobDefinition {
  return {
    name: RETRY_JOB,
    description: 'Retries media-server changes that failed (back-off 30 s … 24 h, then gives up)',
    schedule: RETRY_CRON,
    run: (run) => runRetryWorker(ctx, deps, run),
  };
}
