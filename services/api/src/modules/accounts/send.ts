// A background sender for account mails nobody waits for (the change notice, password-reset codes
// whose timing must not reveal whether an address is known). A mail the member waits for is sent
// in the request; its adapter failure answers 502/503 through `handleError`.
import type { ModuleContext } from '../context.js';

/**
 * Runs a mail send without making the request wait, as a task of the app's `background` (so tests
 * and the graceful stop wait for it); a failure is logged (never the code or the message body)
 * and handed to `onFailure`.
 */
export function sendInBackground(
  ctx: Pick<ModuleContext, 'background' | 'logger'>,
  what: string,
  send: () => Promise<void>,
  onFailure?: () => Promise<void>,
): void {
  const { logger } = ctx;
  ctx.background.run(`mail:${what}`, () =>
    send().catch(async (err: unknown) => {
      // Best effort by design: the originating request has already answered.
      logger.warn({ err: (err as Error).message, mail: what }, 'account mail could not be sent');
      await onFailure?.().catch((e: unknown) =>
        logger.warn({ err: (e as Error).message }, 'could not record a failed mail'),
      );
    }),
  );
}
