// Membership state rules: when a member counts as expired, and what that means for their media
// account. Shared by the user DTOs, access sync, the retry worker, requests and the messenger.
import type { MediaState } from '@usher/contracts';
import type { UserRow } from '../../db/schema/index.js';

/** Whether the membership has ended (`expires_at` at or before `now`); never for `null`. */
export function isExpired(row: Pick<UserRow, 'expiresAt'>, now: Date): boolean {
  return row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
}

/** The media state shown to people (20-api.md §2); admins' accounts are never disabled by Usher. */
export function mediaState(row: UserRow, now: Date): MediaState {
  if (!row.mediaUserId) return 'unlinked';
  if (row.role === 'admin') return 'enabled';
  if (row.mediaAccessDisabled) return 'disabled_by_admin';
  if (isExpired(row, now)) return 'disabled_expired';
  return 'enabled';
}
