import type { JobRun } from '@usher/contracts';
import type { Tone } from '../../shared/status-chip';

/** Job-run status chips (60-web.md §6.6): icon + text + tone. */
export const RUN_CHIPS: Record<JobRun['status'], { tone: Tone; icon: string }> = {
  running: { tone: 'info', icon: 'autorenew' },
  succeeded: { tone: 'success', icon: 'check_circle' },
  failed: { tone: 'error', icon: 'error' },
  skipped: { tone: 'neutral', icon: 'skip_next' },
  abandoned: { tone: 'warning', icon: 'link_off' },
};

/** How long a run took, as a translation key and params; null while it runs. */
export function durationOf(
  run: Pick<JobRun, 'startedAt' | 'finishedAt'>,
): { key: string; params: { n: number } } | null {
  if (!run.finishedAt) return null;
  const seconds = Math.max(0, (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000);
  if (seconds < 120) return { key: 'jobs.seconds', params: { n: Math.round(seconds) } };
  return { key: 'jobs.minutes', params: { n: Math.round(seconds / 60) } };
}
