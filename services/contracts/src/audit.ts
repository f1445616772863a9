import { z } from 'zod';
import { ACTOR_TYPES } from './values.js';
import { isoInstant, paginationQuerySchema, uuidSchema, safeString } from './common.js';

/** A calendar day `YYYY-MM-DD`, read in the business timezone (20-api.md §1.1). */
export const calendarDaySchema = z.iso.date();

/**
 * A day a request names (`from`, `to`, `week`, `date`): years 0001–9998. Routes add days to it
 * (the day after `to`, the Sunday of `week`), and past 9999-12-31 no `YYYY-MM-DD` exists; year
 * 0000 is no day at all. Outside the range: 400, never a 500.
 */
export const requestDaySchema = z.iso
  .date()
  .refine((day) => day >= '0001-01-01' && day <= '9998-12-31', {
    message: 'must be a day from 0001-01-01 to 9998-12-31',
  });

/** An instant a request names, in the same years as `requestDaySchema`. */
export const requestInstantSchema = isoInstant.refine(
  (at) => at >= '0001-01-01' && at < '9999-01-01',
  { message: 'must be an instant from 0001-01-01 to 9998-12-31' },
);

export const auditEntrySchema = z
  .object({
    id: uuidSchema,
    at: isoInstant,
    actorType: z.enum(ACTOR_TYPES),
    actorId: uuidSchema.nullable(),
    actorLabel: safeString(),
    action: safeString(),
    targetType: safeString().nullable(),
    targetId: safeString().nullable(),
    details: z.unknown().nullable(),
    ip: safeString().nullable(),
    requestId: safeString().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = paginationQuerySchema.extend({
  actorId: uuidSchema.optional(),
  /** Prefix match: `user.` finds every user action. */
  action: safeString().min(1).max(64).optional(),
  targetType: safeString().min(1).max(64).optional(),
  targetId: safeString().min(1).max(255).optional(),
  from: requestDaySchema.optional(),
  to: requestDaySchema.optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
