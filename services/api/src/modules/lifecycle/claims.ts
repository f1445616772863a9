// The claims of `member_notices` (docs/lifecycle.md), shared by the reminders and the
// announcements: a notice goes out at most once per (member, kind, ref, channel), whichever run,
// rerun or replica gets there first, and a failed one is tried again up to three times. Their SQL
// is in `queries.ts`; this file adds what a bot reply counts as.
import type { DeliveryResult } from './queries.js';

export {
  claimNotice,
  finishNotice,
  recordSkipped,
  type DeliveryResult,
  type NoticeKey,
} from './queries.js';

/** What a member's bot message came to: sent only when the bot says a delivery went out. */
export function botResult(reply: {
  outcome: string;
  deliveries: { status: string }[];
}): DeliveryResult {
  const delivered = (d: { status: string }) => ['sent', 'edited', 'unchanged'].includes(d.status);
  if (
    reply.outcome === 'sent' &&
    (reply.deliveries.length === 0 || reply.deliveries.some(delivered))
  ) {
    return { status: 'sent' };
  }
  const why = reply.deliveries.map((d) => d.status).join(', ') || reply.outcome;
  return { status: 'failed', detail: `the bot did not deliver (${why})` };
}
