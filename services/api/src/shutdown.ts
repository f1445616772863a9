import type { Logger } from 'pino';
import { settle, type PendingWork } from './modules/background.js';

/**
 * How long a graceful stop waits, after the HTTP server has drained, for running jobs, background
 * tasks and pushes to the bot together: well inside the 25 s forced exit of `main.ts`.
 */
export const FINISH_WORK_MS = 10_000;
const MARK_INTERRUPTED_MS = 2_000;

export interface WorkToFinish extends PendingWork {
  scheduler: { stop(timeoutMs?: number): Promise<unknown> };
  logger: Logger;
}

/**
 * The step of a graceful stop between the drained HTTP server and the closing pool: stops the job
 * timers and waits for running jobs, then for the work that outlived its reply (request
 * hand-offs, account mails) and the pushes to the bot — at most `boundMs` for all of it. What is
 * still running then is abandoned: it is counted in a warning, and the pool closes under it.
 */
export async function finishWork(
  work: WorkToFinish,
  boundMs = FINISH_WORK_MS,
): Promise<{ abandoned: number }> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), boundMs);
  });
  const finished = (async () => {
    // Jobs get most of the bound; the rest marks the runs still going as abandoned (so another
    // replica takes over at once) before the pool closes.
    await work.scheduler.stop(Math.max(0, boundMs - MARK_INTERRUPTED_MS));
    await settle(work);
    return true as const;
  })();
  const done = await Promise.race([finished, bound]);
  clearTimeout(timer);
  if (done) return { abandoned: 0 };
  const abandoned = work.background.pending + work.notify.pending;
  work.logger.warn({ abandoned, boundMs }, 'stopping with background work still running');
  return { abandoned };
}
