import type { Logger } from 'pino';
import type { ModuleContext } from '../context.js';

/**
 * Work that runs after the reply (automation hand-off, building notify bodies). Tracked per app
 * so tests — and a graceful shutdown — can wait for it; failures are logged, never thrown.
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

const perApp = new WeakMap<object, Background>();

/** The background tracker of one app (keyed by its module context). */
export function backgroundOf(ctx: Pick<ModuleContext, 'logger'>): Background {
  let found = perApp.get(ctx);
  if (!found) {
    found = new Background(ctx.logger);
    perApp.set(ctx, found);
  }
  return found;
}

/** Waits until the app's request work and its pushes to the bot have finished (tests). */
export async function settle(ctx: ModuleContext): Promise<void> {
  const background = backgroundOf(ctx);
  do {
    await background.idle();
    await ctx.notify.idle();
  } while (background.pending > 0);
}
