import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { queryRows } from '../db/sql.js';

export const LEASE_SECONDS = 60;

/**
 * Takes the job's lease for `runId` unless a live lease exists (10-data.md §9). An expired lease
 * is taken over and the run that held it is marked `abandoned`. Times come from the database
 * clock so replicas with skewed clocks still agree.
 */
export async function acquireJobLease(
  db: Database,
  jobName: string,
  ownerId: string,
  runId: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const current = await queryRows<{ run_id: string; live: boolean }>(
      tx,
      sql`
      select run_id, expires_at > now() as live from job_leases
      where job_name = ${jobName} for update`,
    );
    const row = current[0];
    if (row?.live) return false;
    if (row) {
      await tx.execute(sql`
        update job_runs set status = 'abandoned', finished_at = now(),
          error = 'lease expired; another replica took the job over'
        where id = ${row.run_id} and status = 'running'`);
      await tx.execute(sql`
        update job_leases set owner_id = ${ownerId}, run_id = ${runId}, acquired_at = now(),
          expires_at = now() + make_interval(secs => ${LEASE_SECONDS})
        where job_name = ${jobName}`);
      return true;
    }
    const inserted = await queryRows(
      tx,
      sql`
      insert into job_leases (job_name, owner_id, run_id, acquired_at, expires_at)
      values (${jobName}, ${ownerId}, ${runId}, now(), now() + make_interval(secs => ${LEASE_SECONDS}))
      on conflict (job_name) do nothing
      returning job_name`,
    );
    return inserted.length === 1;
  });
}

/** Extends a held lease; false means it was lost (expired and taken over). */
export async function renewJobLease(
  db: Database,
  jobName: string,
  runId: string,
): Promise<boolean> {
  const result = await queryRows(
    db,
    sql`
    update job_leases set expires_at = now() + make_interval(secs => ${LEASE_SECONDS})
    where job_name = ${jobName} and run_id = ${runId} and expires_at > now()
    returning job_name`,
  );
  return result.length === 1;
}

export async function releaseJobLease(db: Database, jobName: string, runId: string): Promise<void> {
  await db.execute(sql`delete from job_leases where job_name = ${jobName} and run_id = ${runId}`);
}
