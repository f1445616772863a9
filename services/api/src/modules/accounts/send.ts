// Sending account mail: the reply when a mail that the member waits for cannot be sent, and a
// background sender for mails nobody waits for (the change notice, password-reset codes whose
// timing must not reveal whether an address is known).
import type { ModuleContext } from '../context.js';
import { AppError } from '../../http/errors.js';
import { IntegrationError } from '../../integrations/errors.js';

/** 503 `NOT_CONFIGURED` / 502 `UPSTREAM_*` with `details.system: "smtp"`. */
export function mailFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof IntegrationError) {
    const mapped = err.toAppError();
    // A refused recipient is the server's answer about this address, not an outage, but the
    // route promises only 502/503 for mail: report it as unavailable with the reason.
    if (mapped.code === 'UPSTREAM_REJECTED') {
      return new AppError('UPSTREAM_UNAVAILABLE', err.message, {
        details: { system: 'smtp' },
        cause: err,
      });
    }
    return mapped;
  }
  return new AppError('INTERNAL_ERROR', 'Something went wrong on our side', { cause: err });
}

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
