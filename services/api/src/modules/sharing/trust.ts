// The trust score (docs/sharing.md): 100 for a member with no events; each event lowers it by
// its weight — an actioned (confirmed) event 20, an open one 10 — and a dismissed one raises it
// by 5, every weight halving each 30 days. Computed from `sharing_events` when asked, so it
// recovers with time without a job, and a dismissal shows at once.
import { DAY_MS } from '../../time/units.js';
import type { SharingEventStatus } from '../../db/schema/index.js';

const WEIGHTS: Record<SharingEventStatus, number> = { actioned: -20, open: -10, dismissed: 5 };
export const TRUST_HALF_LIFE_DAYS = 30;
/** Events older than this weigh less than 2 % and are not read. */
export const TRUST_HORIZON_DAYS = 180;

export function trustScore(
  events: { status: SharingEventStatus; detectedAt: Date }[],
  now: Date,
): number {
  let score = 100;
  for (const e of events) {
    const ageDays = Math.max(0, now.getTime() - e.detectedAt.getTime()) / DAY_MS;
    score += WEIGHTS[e.status] * 0.5 ** (ageDays / TRUST_HALF_LIFE_DAYS);
  }
  return Math.max(0, Math.min(100, Math.round(score)));
}
