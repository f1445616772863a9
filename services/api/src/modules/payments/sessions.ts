// Best-effort expiry of Stripe Checkout sessions whose local payment is no longer payable
// (withdrawn plan, stale pending row, the payments_expire job). The local row is already
// expired and committed; a session that cannot be expired now simply runs out at its own
// expires_at, and should it still be paid, the webhook fulfils it (money was taken).
import { IntegrationError } from '../../integrations/errors.js';
import type { ModuleContext } from '../context.js';

export interface SessionExpiry {
  expired: number;
  failed: number;
}

export async function expireSessions(
  ctx: Pick<ModuleContext, 'integrations' | 'logger'>,
  sessionIds: (string | null)[],
): Promise<SessionExpiry> {
  const ids = sessionIds.filter((id): id is string => Boolean(id));
  const result = { expired: 0, failed: 0 };
  if (ids.length === 0) return result;
  let stripe;
  try {
    stripe = await ctx.integrations.payments.get();
  } catch (err) {
    // Keys removed since the sessions were made: nothing can be called; they run out by themselves.
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { expired: 0, failed: ids.length };
    }
    throw err;
  }
  for (const id of ids) {
    try {
      await stripe.expireCheckoutSession(id);
      result.expired += 1;
    } catch (err) {
      // One session's failure must not stop the others; it expires at its own time anyway.
      result.failed += 1;
      ctx.logger.warn({ err, sessionId: id }, 'could not expire a Stripe checkout session');
    }
  }
  return result;
}

/** Expires the sessions after the reply, in the app's background work (shutdown waits). */
export function expireSessionsLater(ctx: ModuleContext, sessionIds: (string | null)[]): void {
  if (!sessionIds.some(Boolean)) return;
  ctx.background.run('payments.expire_sessions', async () => {
    await expireSessions(ctx, sessionIds);
  });
}
