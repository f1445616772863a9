import { sql } from 'drizzle-orm';
import { check, index, inet, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/table.js';

/** Who did what (10-data.md §9). Never holds passwords, codes, tokens or secret setting values. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorType: text('actor_type').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details'),
    ip: inet('ip'),
    requestId: text('request_id'),
  },
  (t) => [
    // Exactly the list's order (`at desc, id desc`, nulls first as PostgreSQL's default for
    // desc): the deferred join of the list's deep pages scans only this index (issue 33). The
    // old `at desc` index was written `desc nulls last`, which no `order by at desc` can use.
    index('audit_log_at_id_idx').on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_actor_idx').on(t.actorId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_target_idx').on(
      t.targetType,
      t.targetId,
      t.at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('audit_log_action_idx').on(t.action, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check(
      'audit_log_actor_type_ck',
      sql`${t.actorType} in ('user', 'admin', 'bot', 'system', 'webhook')`,
    ),
  ],
);
export type AuditLogRow = typeof auditLog.$inferSelect;
