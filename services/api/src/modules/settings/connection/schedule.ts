import { formatWallClock, wallClock } from '@usher/contracts/time';
import type { SettingCheck } from '@usher/contracts';
import { Cron } from 'croner';
import {
  fail,
  ok,
  runCheck,
  warn,
  type CheckResult,
  type GroupTest,
  type TestContext,
} from './check.js';

/**
 * Every editable cron key (30-settings.md §4.8), and `REMINDER_CRON` of the lifecycle group
 * (docs/lifecycle.md): it runs in `SCHEDULE_TIMEZONE` too, so a zone change shows its effect.
 */
export const CRON_KEYS = [
  'EXPIRY_CHECK_CRON',
  'CALENDAR_SYNC_CRON',
  'RANKING_DAILY_CRON',
  'RANKING_WEEKLY_CRON',
  'CLEANUP_CRON',
  'REMINDER_CRON',
  'BACKUP_CRON',
] as const;
const RANKING_KEYS = new Set(['RANKING_DAILY_CRON', 'RANKING_WEEKLY_CRON']);
const PREVIEW_RUNS = 3;

/** `2025-03-01 20:00 Sat` in `timeZone`. */
function formatIn(timeZone: string, at: Date): string {
  const clock = wallClock(at, timeZone);
  return `${formatWallClock(clock)} ${clock.weekday}`;
}

/** The next fire times of one expression; an unparsable one fails. */
export function previewCron(
  key: string,
  expression: string,
  timeZone: string,
  from: Date,
  note = '',
): CheckResult {
  let runs: Date[];
  try {
    runs = new Cron(expression, { timezone: timeZone, paused: true }).nextRuns(PREVIEW_RUNS, from);
  } catch (err) {
    // croner reports an unparsable pattern or zone only by throwing.
    return fail(`${key}: cannot parse "${expression}" (${(err as Error).message})`);
  }
  if (runs.length === 0) return warn(`${key} "${expression}" never fires`);
  const times = runs.map((at) => formatIn(timeZone, at)).join(', ');
  return ok(`${key} "${expression}": ${times} (${timeZone})${note}`);
}

async function previews(ctx: TestContext) {
  const { settings } = ctx;
  const now = ctx.now();
  const timeZone = (await settings.getString('SCHEDULE_TIMEZONE')) || 'UTC';
  const rankings = await settings.get('RANKING_ENABLED');
  const checks: SettingCheck[] = [];
  for (const key of CRON_KEYS) {
    const expression = await settings.getString(key);
    if (expression.trim() === '') {
      // An empty key is "off" (BACKUP_CRON's default), not an unparsable expression.
      checks.push(await runCheck('preview', ctx, async () => ok(`${key} is empty: off`)));
      continue;
    }
    let note = RANKING_KEYS.has(key) && !rankings ? '; rankings are off' : '';
    if (ctx.jobs) {
      const users = ctx.jobs.filter((j) => j.scheduleSetting === key).map((j) => j.name);
      note += users.length
        ? `; drives ${users.join(', ')}`
        : '; no job of this version follows this key yet';
    }
    checks.push(
      await runCheck('preview', ctx, async () => previewCron(key, expression, timeZone, now, note)),
    );
  }
  return checks;
}

/**
 * `preview`: the next 3 fire times of each cron key in `SCHEDULE_TIMEZONE` (30-settings §6), the
 * jobs each key drives, and a warning while `JOBS_ENABLED` is off (the scheduler then arms no
 * timer on any replica).
 */
export const testSchedule: GroupTest = async (ctx) => {
  const checks = await previews(ctx);
  if (!(await ctx.settings.get('JOBS_ENABLED'))) {
    checks.unshift(
      await runCheck('preview', ctx, async () =>
        warn('JOBS_ENABLED is off: no timer fires (manual runs still work)'),
      ),
    );
  }
  return checks;
};
