import type { JobDefinition } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { expiryJob } from './expiry.js';
import { policyApplyJob } from './policy-apply.js';
import { retryMetrics, retryWorkerJob } from './retry-worker.js';

/**
 * The membership lifecycle jobs (30-settings.md §9): `expiry_check`, `media_server_retry` and
 * the manual `media_policy_apply`.
 * Call once per app: the retry worker registers its metric on the app's registry.
 */
export function membershipJobs(ctx: ModuleContext): JobDefinition[] {
  return [
    expiryJob(ctx),
    retryWorkerJob(ctx, retryMetrics(ctx.metrics.registry)),
    policyApplyJob(ctx),
  ];
}
