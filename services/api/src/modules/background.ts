import type { Logger } from 'pino';
import type { Notifier } from '../notify/notifier.js';

/**
 * Work that outlives its reply: the automation hand-off and notify bodies of requests, account
 * mails nobody waits for. One per app (`ModuleContext.background`), so tests and the graceful stop
 * in `main.ts` can wait for it; a failure is logged, never thrown.
 */
export class Background {
  private readonly tasks = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, work: () => Promise<void>): void {
    const task = work().catch((err: unknown) => {
      // Background work has no caller to answer; logging is all that is left to do.
      this.logger.error({ err, task: name }, 'background task failed');
    });
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  /** Tasks still running. */
  get pending(): number {
    return this.tasks.size;
  }

  /** Resolves when every task started so far (and those they started) has finished. */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }
}

/** What `settle` waits for: the app's background tasks and its pushes to the bot. */
export interface PendingWork {
  background: Background;
  notify: Pick<Notifier, 'idle' | 'pending'>;
}

/** Waits until the background tasks and the pushes they started have all finished. */
export async function settle(work: PendingWork): Promise<void> {
  do {
    await work.background.idle();
    await work.notify.idle();
  } while (work.background.pending > 0 || work.notify.pending > 0);
}
