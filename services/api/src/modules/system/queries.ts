// SQL of the system module: the counts `GET /admin/system/info` shows and each job's last run.
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { queryRows } from '../../db/sql.js';

/** The counts an operator checks first, the database's size and version, in one round trip. */
export async function operatorCounts(
  db: Database,
  now: Date,
): Promise<Record<string, string | number>> {
  const at = now.toISOString();
  const monthAgo = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const [counts] = await queryRows<Record<string, string | number>>(
    db,
    sql`select
      (select count(*) from users) as users_total,
      (select count(*) from users where role = 'user' and expires_at > ${at}) as users_active,
      (select count(*) from users where role = 'user' and expires_at <= ${at}) as users_expired,
      (select count(*) from users where media_disabled) as users_media_disabled,
      (select count(*) from users where role = 'admin') as users_admins,
      (select count(*) from redeem_codes where used_count < max_uses
        and (expires_at is null or expires_at > ${at})) as codes_active,
      (select count(*) from media_requests where status = 'PENDING') as requests_pending,
      (select count(*) from media_requests where status = 'APPROVED'
        and automation_error is not null) as requests_automation_errors,
      (select count(*) from payments where status = 'pending') as payments_pending,
      (select count(*) from payments where status = 'completed'
        and completed_at >= ${monthAgo}) as payments_completed_30d,
      (select count(*) from media_server_retry_queue where status = 'pending') as retry_pending,
      (select count(*) from media_server_retry_queue where status = 'gave_up') as retry_gave_up,
      pg_database_size(current_database()) as database_size,
      current_setting('server_version') as database_version`,
  );
  return counts ?? {};
}

/** The latest run of every job that ever ran. */
export function lastRunPerJob(db: Database) {
  return queryRows<{
    job_name: string;
    status: string;
    trigger: string;
    started_at: Date | string;
    finished_at: Date | string | null;
    error: string | null;
  }>(
    db,
    sql`select distinct on (job_name) job_name, status, trigger, started_at, finished_at, error
        from job_runs order by job_name, started_at desc, id desc`,
  );
}

/**
 * The membership figures of the admin dashboard (issue 36), in one round trip. Each count is a
 * range on an index of `users` or `redemptions` (created_at, expires_at) or the partial index of
 * completed payments, so none reads the whole table at 100 000 members.
 */
export async function membershipCounts(
  db: Database,
  now: Date,
): Promise<Record<string, string | number>> {
  const at = now.toISOString();
  const monthAgo = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const monthAhead = new Date(now.getTime() + 30 * 86_400_000).toISOString();
  const [counts] = await queryRows<Record<string, string | number>>(
    db,
    sql`select
      (select count(*) from users where role = 'user' and expires_at > ${at}) as active,
      (select count(*) from users where role = 'user' and expires_at <= ${at}) as expired,
      (select count(*) from users where role = 'user' and created_at >= ${monthAgo}) as joined,
      (select count(*) from users where role = 'user' and expires_at > ${at}
        and expires_at <= ${monthAhead}) as expiring,
      (select count(*) from users where role = 'user' and expires_at > ${monthAgo}
        and expires_at <= ${at}) as lapsed,
      (select count(*) from payments where status = 'completed'
        and completed_at >= ${monthAgo}) +
      (select count(*) from redemptions where created_at >= ${monthAgo}) as renewals`,
  );
  return counts ?? {};
}

/** Completed payments per currency in `[from, to)`: the sum in minor units and how many. */
export function revenueBetween(db: Database, from: Date, to: Date) {
  return queryRows<{ currency: string; amount: string | number; n: string | number }>(
    db,
    sql`select currency, sum(amount) as amount, count(*) as n from payments
        where status = 'completed' and completed_at >= ${from.toISOString()}
          and completed_at < ${to.toISOString()}
        group by currency`,
  );
}
