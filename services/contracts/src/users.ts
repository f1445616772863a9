import { z } from 'zod';
import { requestDaySchema, requestInstantSchema } from './audit.js';
import {
  ADMIN_USER_SORTS,
  BULK_USER_ACTIONS,
  LOCALES,
  MEDIA_CLEANUP_OUTCOMES,
  MEDIA_STATES,
  MEDIA_SYNC_OUTCOMES,
  MEMBERSHIP_STATUSES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  REGISTERED_VIA,
  ROLES,
  SORT_ORDERS,
  USERNAME_PATTERN,
} from './values.js';
import { isoInstant, paginationQuerySchema, uuidSchema, safeString } from './common.js';
import { errorCodeSchema } from './errors.js';

export const usernameSchema = safeString().min(3).max(32).regex(USERNAME_PATTERN, {
  message: 'Use letters, digits and underscores only',
});
export const newPasswordSchema = safeString().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);

/** A member or admin as the API shows it to that person (20-api.md §2). */
export const userSchema = z
  .object({
    id: uuidSchema,
    username: safeString(),
    email: safeString().nullable(),
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
      mediaUserId: safeString().nullable(),
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

// ---- Admin users (20-api.md §6 "Users") ----

const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');
/** An instant, or a calendar day `YYYY-MM-DD` in the business timezone (20-api.md §1.1). */
const instantOrDay = z.union([requestInstantSchema, requestDaySchema]);

/** `GET /admin/users`: every filter is optional; default order newest first. */
export const adminUserListQuerySchema = paginationQuerySchema.extend({
  /** Empty means no search, so a cleared search box needs no special casing. */
  search: safeString()
    .trim()
    .max(254)
    .optional()
    .transform((v) => v || undefined),
  role: z.enum(ROLES).optional(),
  isActive: boolQuery.optional(),
  status: z.enum(MEMBERSHIP_STATUSES).optional(),
  mediaState: z.enum(MEDIA_STATES).optional(),
  /** Day form: expiring before the end of that day (inclusive). */
  expiresBefore: instantOrDay.optional(),
  /** Day form: expiring from the start of that day. */
  expiresAfter: instantOrDay.optional(),
  sort: z.enum(ADMIN_USER_SORTS).default('createdAt'),
  order: z.enum(SORT_ORDERS).default('desc'),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

export const emailSchema = z
  .email()
  .max(254)
  .transform((s) => s.toLowerCase());

/**
 * `POST /admin/users`. Members need exactly one of `expiresAt` / `neverExpires:true`; admins
 * never expire and get no media user (they bind an existing one through self-binding).
 */
export const createAdminUserSchema = z
  .strictObject({
    username: usernameSchema,
    email: emailSchema.optional(),
    password: newPasswordSchema.optional(),
    role: z.enum(ROLES).default('user'),
    expiresAt: requestInstantSchema.optional(),
    neverExpires: z.literal(true).optional(),
    mediaAccessDisabled: z.boolean().optional(),
    createMediaUser: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.role === 'user') {
      if ((v.expiresAt === undefined) === (v.neverExpires === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['expiresAt'],
          message: 'Give exactly one of expiresAt or neverExpires:true',
        });
      }
      return;
    }
    for (const field of ['expiresAt', 'mediaAccessDisabled'] as const) {
      if (v[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'Administrators never expire' });
      }
    }
    if (v.createMediaUser === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['createMediaUser'],
        message: 'Administrators link an existing media-server account instead',
      });
    }
  });
export type CreateAdminUserRequest = z.infer<typeof createAdminUserSchema>;

export const createAdminUserResponseSchema = z.object({
  user: adminUserSchema,
  /** Shown once, only when the password was generated. */
  generatedPassword: safeString().optional(),
});

export const adminUserDetailSchema = adminUserSchema
  .extend({
    counts: z.object({
      redemptions: z.number().int(),
      payments: z.number().int(),
      activeRequests: z.number().int(),
    }),
  })
  .meta({ id: 'AdminUserDetail' });
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const updateAdminUserSchema = z
  .strictObject({
    email: emailSchema.nullable().optional(),
    role: z.enum(ROLES).optional(),
    expiresAt: requestInstantSchema.optional(),
    neverExpires: z.literal(true).optional(),
  })
  .refine((v) => v.expiresAt === undefined || v.neverExpires === undefined, {
    path: ['expiresAt'],
    message: 'Give at most one of expiresAt or neverExpires:true',
  });
export type UpdateAdminUserRequest = z.infer<typeof updateAdminUserSchema>;

export const extendUserSchema = z.strictObject({ days: z.number().int().min(1).max(3650) });
export const extendUserResponseSchema = z.object({
  user: adminUserSchema,
  previousExpiresAt: isoInstant.nullable(),
  expiresAt: isoInstant,
  mediaSync: z.enum(MEDIA_SYNC_OUTCOMES),
});

export const setUserActiveSchema = z.strictObject({ isActive: z.boolean() });
export const setMediaAccessSchema = z.strictObject({ enabled: z.boolean() });
export const mediaSyncRequestSchema = z.strictObject({ policy: z.boolean().default(false) });
export const userMediaSyncResponseSchema = z.object({
  user: adminUserSchema,
  mediaSync: z.enum(MEDIA_SYNC_OUTCOMES),
});

export const adminResetPasswordSchema = z.strictObject({
  newPassword: newPasswordSchema.optional(),
  requireChange: z.boolean().default(true),
});
export const adminResetPasswordResponseSchema = z.object({
  generatedPassword: safeString().optional(),
});

export const deleteUserResponseSchema = z.object({
  mediaCleanup: z.enum(MEDIA_CLEANUP_OUTCOMES),
});

export const bulkUsersSchema = z
  .strictObject({
    ids: z.array(safeString().max(64)).min(1).max(100),
    action: z.enum(BULK_USER_ACTIONS),
    days: z.number().int().min(1).max(3650).optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.action === 'extend') !== (v.days !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['days'],
        message: v.action === 'extend' ? 'days is required to extend' : 'days is only for extend',
      });
    }
  });
export const bulkUsersResponseSchema = z.object({
  results: z.array(
    z.object({ id: safeString(), ok: z.boolean(), code: errorCodeSchema.optional() }),
  ),
});

// ---- Admin self-binding to a media-server account ----

export const mediaServerUserQuerySchema = z.strictObject({
  query: safeString().trim().min(2).max(64),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const mediaServerUserListSchema = z.object({
  data: z.array(
    z.object({
      mediaUserId: safeString(),
      name: safeString(),
      isAdministrator: z.boolean(),
      isDisabled: z.boolean(),
      boundTo: z.object({ userId: uuidSchema, username: safeString() }).optional(),
      available: z.boolean(),
    }),
  ),
});
export const mediaServerLibraryListSchema = z.object({
  data: z.array(
    z.object({ id: safeString(), name: safeString(), collectionType: safeString().nullable() }),
  ),
});
export const bindMediaUserSchema = z.strictObject({
  mediaUserId: safeString().trim().min(1).max(64),
});
