import type { AdminUser, User } from '@usher/contracts';
import type { UserRow } from '../../db/schema/index.js';
import { isExpired, mediaState } from '../membership/index.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toUser(row: UserRow, now = new Date()): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role as User['role'],
    isActive: row.isActive,
    mustChangePassword: row.mustChangePassword,
    expiresAt: iso(row.expiresAt),
    isExpired: isExpired(row, now),
    registeredVia: row.registeredVia as User['registeredVia'],
    locale: row.locale as User['locale'],
    lastLoginAt: iso(row.lastLoginAt),
    createdAt: row.createdAt.toISOString(),
    media: {
      linked: row.mediaUserId !== null,
      mediaUserId: row.mediaUserId,
      state: mediaState(row, now),
    },
    messenger: {
      bound: row.messengerId !== null,
      messengerId: row.messengerId,
      boundAt: iso(row.messengerBoundAt),
    },
  };
}

export function toAdminUser(row: UserRow, now = new Date()): AdminUser {
  return {
    ...toUser(row, now),
    mediaDisabled: row.mediaDisabled,
    mediaAccessDisabled: row.mediaAccessDisabled,
    updatedAt: row.updatedAt.toISOString(),
  };
}
