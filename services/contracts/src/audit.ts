import { z } from 'zod';
import { ACTOR_TYPES } from './values.js';
import { isoInstant, paginationQuerySchema, uuidSchema, safeString } from './common.js';

/** A calendar day `YYYY-MM-DD`, read in the business timezone (20-api.md §1.1). */
export const calendarDaySchema = z.iso.date();

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
  from: calendarDaySchema.optional(),
  to: calendarDaySchema.optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
