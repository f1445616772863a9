// `ranking_daily` and `ranking_weekly` (30-settings.md §9): on RANKING_DAILY_CRON /
// RANKING_WEEKLY_CRON in SCHEDULE_TIMEZONE while RANKING_ENABLED, build the batch of the current
// period (cutoff = now) and push it to the bot when RANKING_PUSH, waiting for its answer so the
// run's summary and the batch carry the push outcome.
import { requestDaySchema, type RankingPeriod } from '@usher/contracts';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { JobDefinition, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { pushRanking, storeRanking } from './service.js';

export const RANKING_DAILY_JOB = 'ranking_daily';
export const RANKING_WEEKLY_JOB = 'ranking_weekly';

/** Params of a manual run (`POST /admin/jobs/:name/run`): another day's period. */
const paramsSchema = z.strictObject({ date: requestDaySchema.optional() });

async function runRanking(ctx: ModuleContext, period: RankingPeriod, run: JobRunContext) {
  const parsed = paramsSchema.safeParse(run.params ?? {});
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', 'Ranking job params are { date?: YYYY-MM-DD }');
  }
  let stored;
  try {
    stored = await storeRanking(ctx, {
      period,
      ...(parsed.data.date ? { date: parsed.data.date } : {}),
      trigger: run.trigger === 'schedule' ? 'schedule' : 'manual',
    });
  } catch (err) {
    // Runs when: the media server (and its Playback Reporting plugin) is configured.
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { status: 'skipped' as const, summary: { reason: `${err.system} not configured` } };
    }
    throw err;
  }
  const push = await ctx.settings.store.get('RANKING_PUSH');
  const pushOutcome = push ? await pushRanking(ctx, stored) : null;
  const b = stored.batch;
  return {
    summary: {
      batchId: b.id,
      periodStart: b.periodStart,
      periodEnd: b.periodEnd,
      movies: stored.entries.filter((e) => e.category === 'movie').length,
      series: stored.entries.filter((e) => e.category === 'series').length,
      totalDurationSeconds: b.totalDurationS,
      pushOutcome,
    },
  };
}

export function rankingJobs(ctx: ModuleContext): JobDefinition[] {
  return [
    {
      name: RANKING_DAILY_JOB,
      description: "Builds today's play ranking and pushes it to the group chat",
      schedule: '0 20 * * *',
      scheduleSetting: 'RANKING_DAILY_CRON',
      enabledSetting: 'RANKING_ENABLED',
      run: (run) => runRanking(ctx, 'daily', run),
    },
    {
      name: RANKING_WEEKLY_JOB,
      description: "Builds this week's play ranking and pushes it to the group chat",
      schedule: '30 20 * * 0',
      scheduleSetting: 'RANKING_WEEKLY_CRON',
      enabledSetting: 'RANKING_ENABLED',
      run: (run) => runRanking(ctx, 'weekly', run),
    },
  ];
}
