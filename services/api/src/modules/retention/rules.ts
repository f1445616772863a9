// Retention of 10-data.md §11: which rows the daily `cleanup` job deletes, table by table.
import { sql, type SQL } from 'drizzle-orm';
import { PLAYS_RETENTION_DAYS } from '../playback/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface RetentionRule {
  /** Name in the run summary: the table, with a qualifier when one table has two rules. */
  name: string;
  table: string;
  /** Primary-key column the batches delete by. */
  key: string;
  /** Rows past retention at `now` (a condition on `table`). */
  expired(now: Date): SQL;
  /**
   * The table belongs to a feature that may not exist in this version yet (device actions,
   * rankings): the rule is skipped while the table is missing.
   */
  optional?: boolean;
}

const before = (now: Date, ms: number) => new Date(now.getTime() - ms).toISOString();

/** Every rule of 10-data.md §11 (payments are kept forever; pending ones expire elsewhere). */
export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    name: 'email_codes',
    table: 'email_codes',
    key: 'id',
    expired: (now) => sql`created_at < ${before(now, 48 * HOUR)}`,
  },
  {
    name: 'messenger_bind_codes',
    table: 'messenger_bind_codes',
    key: 'user_id',
    expired: (now) => sql`expires_at < ${now.toISOString()}`,
  },
  {
    name: 'bot_pending_actions',
    table: 'bot_pending_actions',
    key: 'id',
    expired: (now) => sql`expires_at < ${now.toISOString()}`,
  },
  {
    name: 'rate_limits',
    table: 'rate_limits',
    key: 'key',
    expired: (now) => sql`expire < ${before(now, HOUR)}`,
  },
  {
    name: 'tmdb_cache',
    table: 'tmdb_cache',
    key: 'key',
    expired: (now) => sql`expires_at < ${before(now, DAY)}`,
  },
  {
    name: 'payment_webhook_events',
    table: 'payment_webhook_events',
    key: 'event_id',
    expired: (now) => sql`received_at < ${before(now, 90 * DAY)}`,
  },
  {
    name: 'device_actions',
    table: 'device_actions',
    key: 'id',
    optional: true,
    expired: (now) => sql`created_at < ${before(now, 90 * DAY)}`,
  },
  {
    // The latest run of each job is kept whatever its age (the jobs page shows it); a run
    // still marked running is never deleted.
    name: 'job_runs',
    table: 'job_runs',
    key: 'id',
    expired: (now) => sql`started_at < ${before(now, 90 * DAY)} and status <> 'running'
      and id not in (
        select distinct on (job_name) id from job_runs order by job_name, started_at desc, id desc
      )`,
  },
  {
    // Its rankings go with it (playback_rankings.batch_id cascades).
    name: 'ranking_batches',
    table: 'ranking_batches',
    key: 'id',
    optional: true,
    expired: (now) => sql`generated_at < ${before(now, 400 * DAY)}`,
  },
  {
    // Usher's copy of the plugin's plays (issue 33, docs/media.md): two years, the copy's own
    // limit whatever the plugin keeps (the sync copies nothing older).
    name: 'playback_plays',
    table: 'playback_plays',
    key: 'id',
    optional: true,
    expired: (now) => sql`played_at < ${before(now, PLAYS_RETENTION_DAYS * DAY)}`,
  },
  {
    name: 'media_server_retry_queue_done',
    table: 'media_server_retry_queue',
    key: 'id',
    expired: (now) => sql`status = 'done' and updated_at < ${before(now, 30 * DAY)}`,
  },
  {
    name: 'media_server_retry_queue_gave_up',
    table: 'media_server_retry_queue',
    key: 'id',
    expired: (now) => sql`status = 'gave_up' and updated_at < ${before(now, 180 * DAY)}`,
  },
  {
    // docs/lifecycle.md: a reminder's row steers the job only while its membership end lies
    // ahead (the job looks at future ends only); the notices log keeps it 90 days past that end
    // (past its writing, for a notice about no end) to answer "was I reminded?".
    name: 'member_notices',
    table: 'member_notices',
    key: 'id',
    expired: (now) => sql`coalesce(expires_at, created_at) < ${before(now, 90 * DAY)}`,
  },
  {
    name: 'audit_log',
    table: 'audit_log',
    key: 'id',
    expired: (now) => sql`at < ${before(now, 365 * DAY)}`,
  },
];
