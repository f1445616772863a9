// `GET /admin/system/info` (20-api.md §6): versions, database, counts an operator checks first,
// which integrations are configured, and the last run of every job.
import type { SystemInfo } from '@usher/contracts';
import { IntegrationError } from '../../integrations/errors.js';
import type { ModuleContext } from '../context.js';
import { lastRunPerJob, operatorCounts } from './queries.js';

type Configured = 'configured' | 'not_configured';

/** `not_configured` exactly when the adapter refuses to be built for missing settings. */
async function configured(build: () => Promise<unknown>): Promise<Configured> {
  try {
    await build();
    return 'configured';
  } catch (err) {
    if (err instanceof IntegrationError && err.kind === 'not_configured') return 'not_configured';
    // Anything else (e.g. a value that does not parse) is still a configured-but-broken system:
    // the connection test tells the operator more.
    return 'configured';
  }
}

const n = (v: unknown) => Number(v ?? 0);

export async function systemInfo(ctx: ModuleContext): Promise<SystemInfo> {
  const now = ctx.now();
  const c = await operatorCounts(ctx.db, now);
  const lastRuns = await lastRunPerJob(ctx.db);
  const byJob = new Map(lastRuns.map((r) => [r.job_name, r]));
  const iso = (d: Date | string) => new Date(d).toISOString();
  const { integrations } = ctx;
  return {
    version: ctx.config.version,
    nodeVersion: process.version,
    replicaId: ctx.replicaId,
    uptimeSeconds: Math.max(0, Math.floor((Date.now() - ctx.startedAt.getTime()) / 1000)),
    database: ctx.database.kind,
    databaseVersion: String(c.database_version ?? ''),
    databaseSizeBytes: n(c.database_size),
    users: {
      total: n(c.users_total),
      active: n(c.users_active),
      expired: n(c.users_expired),
      mediaDisabled: n(c.users_media_disabled),
      admins: n(c.users_admins),
    },
    redeemCodes: { active: n(c.codes_active) },
    requests: { pending: n(c.requests_pending), automationErrors: n(c.requests_automation_errors) },
    payments: { pending: n(c.payments_pending), completed30d: n(c.payments_completed_30d) },
    retryQueue: { pending: n(c.retry_pending), gaveUp: n(c.retry_gave_up) },
    settings: { undecryptable: (await ctx.settings.store.undecryptable()).length },
    integrations: {
      mediaServer: await configured(() => integrations.mediaServer.get()),
      metadata: await configured(() => integrations.tmdb.get()),
      automation: await configured(() => integrations.automation.get()),
      email: await configured(() => integrations.mail.get()),
      payments: await configured(() => integrations.payments.get()),
      bot: ctx.config.BOT_NOTIFY_URL ? 'configured' : 'not_configured',
    },
    jobs: ctx.scheduler.list().map((job) => {
      const run = byJob.get(job.name);
      return {
        name: job.name,
        lastRun: run
          ? {
              status: run.status,
              trigger: run.trigger,
              startedAt: iso(run.started_at),
              finishedAt: run.finished_at ? iso(run.finished_at) : null,
              error: run.error,
            }
          : null,
      };
    }),
  };
}
