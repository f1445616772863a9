import { z } from 'zod';
import { isoInstant, uuidSchema } from './common.js';

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];
export const REGISTERED_VIA = ['bootstrap', 'open', 'invite', 'admin'] as const;
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const MEDIA_STATES = [
  'enabled',
  'disabled_expired',
  'disabled_by_admin',
  'unlinked',
] as const;
export type MediaState = (typeof MEDIA_STATES)[number];

export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const usernameSchema = z.string().min(3).max(32).regex(USERNAME_PATTERN, {
  message: 'Use letters, digits and underscores only',
});
export const newPasswordSchema = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);

/** A member or admin as the API shows it to that person (20-api.md §2). */
export const userSchema = z
  .object({
    id: uuidSchema,
    username: z.string(),
    email: z.string().nullable(),
    role: z.enum(ROLES),
    isActive: z.boolean(),
    mustChangePassword: z.boolean(),
    expiresAt: isoInstant.nullable(),
    isExpired: z.boolean(),
    registeredVia: z.enum(REGISTERED_VIA),
    locale: z.enum(LOCALES).nullable(),
    lastLoginAt: isoInstant.nullable(),
    createdAt: isoInstant,
    media: z.object({
      linked: z.boolean(),
      mediaUserId: z.string().nullable(),
      state: z.enum(MEDIA_STATES),
    }),
    messenger: z.object({
      bound: z.boolean(),
      messengerId: z.number().int().nullable(),
      boundAt: isoInstant.nullable(),
    }),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

/** `User` plus the admin-only media switches. */
export const adminUserSchema = userSchema
  .extend({
    mediaDisabled: z.boolean(),
    mediaAccessDisabled: z.boolean(),
    updatedAt: isoInstant,
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof adminUserSchema>;
