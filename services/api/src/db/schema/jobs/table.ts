import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instant, ownerId } from '../columns.js';
import { users } from '../users/table.js';

/** Every run of a scheduled or manual job (10-data.md §9). */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: uuid('id').primaryKey(),
    jobName: text('job_name').notNull(),
    trigger: text('trigger').notNull(),
    scheduledFor: instant('scheduled_for'),
    triggeredBy: uuid('triggered_by').references(() => users.id, { onDelete: 'set null' }),
    replicaId: text('replica_id').notNull(),
    status: text('status').notNull().default('running'),
    params: jsonb('params'),
    summary: jsonb('summary'),
    error: text('error'),
    startedAt: instant('started_at').notNull(),
    finishedAt: instant('finished_at'),
  },
  (t) => [
    // Every replica arms the same timers; the insert that wins owns the slot.
    uniqueIndex('job_runs_slot_uq')
      .on(t.jobName, t.scheduledFor)
      .where(sql`${t.trigger} = 'schedule'`),
    index('job_runs_name_started_idx').on(
      t.jobName,
      t.startedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check('job_runs_trigger_ck', sql`${t.trigger} in ('schedule', 'manual', 'startup')`),
    check(
      'job_runs_status_ck',
      sql`${t.status} in ('running', 'succeeded', 'failed', 'skipped', 'abandoned')`,
    ),
    check('job_runs_error_len_ck', sql`${t.error} is null or char_length(${t.error}) <= 2000`),
  ],
);
export type JobRunRow = typeof jobRuns.$inferSelect;

/** Who may execute a job right now; a run holds it, renewing while it lasts. */
export const jobLeases = pgTable('job_leases', {
  jobName: text('job_name').primaryKey(),
  ownerId: text('owner_id').notNull(),
  runId: ownerId('run_id', () => jobRuns.id),
  acquiredAt: instant('acquired_at').notNull(),
  expiresAt: instant('expires_at').notNull(),
});
