import { z } from 'zod';
import { ACTOR_TYPES } from './values.js';
import { isoInstant, paginationQuerySchema, uuidSchema } from './common.js';

/** A calendar day `YYYY-MM-DD`, read in the business timezone (20-api.md §1.1). */
export const calendarDaySchema = z.iso.date();

export const auditEntrySchema = z
  .object({
    id: uuidSchema,
    at: isoInstant,
    actorType: z.enum(ACTOR_TYPES),
    actorId: uuidSchema.nullable(),
    actorLabel: z.string(),
    action: z.string(),
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    details: z.unknown().nullable(),
    ip: z.string().nullable(),
    requestId: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = paginationQuerySchema.extend({
  actorId: uuidSchema.optional(),
  /** Prefix match: `user.` finds every user action. */
  action: z.string().min(1).max(64).optional(),
  targetType: z.string().min(1).max(64).optional(),
  targetId: z.string().min(1).max(255).optional(),
  from: calendarDaySchema.optional(),
  to: calendarDaySchema.optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
