// Suspensions for account sharing end by themselves (docs/sharing.md): once
// `users.sharing_suspended_until` has passed, the column is cleared and access sync writes the
// state the membership wants — enabled again, unless the membership ended or an admin switched
// access off meanwhile. Run by `sharing_watch` every tick and by `expiry_check` every hour, so a
// suspension ends even after the sharing watch was switched off.
import type { ModuleContext } from '../context.js';
import { clearSuspension, dueSuspensions } from './queries.js';

type SuspensionContext = Pick<ModuleContext, 'db' | 'now' | 'accessSync'>;

/** Ends every suspension whose time is up; how many it ended. */
export async function endSharingSuspensions(ctx: SuspensionContext): Promise<number> {
  const now = ctx.now();
  const due = await dueSuspensions(ctx.db, now);
  let ended = 0;
  for (const { id } of due) {
    // Guarded: a replica that got here first, or a new suspension written meanwhile, wins.
    if (!(await clearSuspension(ctx.db, id, now))) continue;
    ended += 1;
    await ctx.accessSync(id, 'sharing');
  }
  return ended;
}
