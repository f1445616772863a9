import type { User } from '@usher/contracts';

export type MembershipState = 'active' | 'expired' | 'no_expiry';

export interface Membership {
  state: MembershipState;
  /** Whole days until expiry (0 on the last day); null without an expiry. */
  daysLeft: number | null;
  expiresAt: Date | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The membership state shown to the member (60-web.md §2.4), derived from `User` only. */
export function membershipOf(user: User, now: Date = new Date()): Membership {
  if (user.role === 'admin' || user.expiresAt === null) {
    return { state: 'no_expiry', daysLeft: null, expiresAt: null };
  }
  const expiresAt = new Date(user.expiresAt);
  if (user.isExpired) return { state: 'expired', daysLeft: 0, expiresAt };
  const daysLeft = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS));
  return { state: 'active', daysLeft, expiresAt };
}

/** "{n} days left" is shown only in the final week (60-web.md §2.4). */
export const DAYS_LEFT_WARNING = 7;
