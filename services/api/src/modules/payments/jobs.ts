// The `payments_expire` job (30-settings.md §9): every 5 minutes, pending payments past their
// window become `expired`, and their Stripe sessions are expired best effort.
import type { JobDefinition, JobOutcome } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { expirePending } from './queries.js';
import { expireSessions } from './sessions.js';

export const PAYMENTS_EXPIRE_JOB = 'payments_expire';
export const PAYMENTS_EXPIRE_CRON = '*/5 * * * *';

export async function runPaymentsExpire(
  ctx: Pick<ModuleContext, 'db' | 'now' | 'integrations' | 'logger'>,
): Promise<JobOutcome> {
  const now = ctx.now();
  const expired = await expirePending(ctx.db, { before: now }, 'checkout window passed', now);
  const sessions = await expireSessions(
    ctx,
    expired.map((p) => p.sessionId),
  );
  const summary = {
    expired: expired.length,
    sessionsExpired: sessions.expired,
    sessionsFailed: sessions.failed,
  };
  return expired.length === 0 ? { status: 'skipped', summary } : { summary };
}

export function paymentsJobs(ctx: ModuleContext): JobDefinition[] {
  return [
    {
      name: PAYMENTS_EXPIRE_JOB,
      description: 'Expires pending payments whose checkout window has passed',
      schedule: PAYMENTS_EXPIRE_CRON,
      run: () => runPaymentsExpire(ctx),
    },
  ];
}
