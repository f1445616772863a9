// SQL of the jobs module: the run history and the job leases, as the admin pages read them.
import type { PaginationQuery } from '@usher/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { tablePage, type PageResult } from '../../db/paging.js';
import { jobLeases, jobRuns, type JobRunRow } from '../../db/schema/index.js';

/** The job's latest run, or null when it never ran. */
export async function lastRun(db: Database, jobName: string): Promise<JobRunRow | null> {
  const [row] = await db
    .select()
    .from(jobRuns)
    .where(eq(jobRuns.jobName, jobName))
    .orderBy(desc(jobRuns.startedAt))
    .limit(1);
  return row ?? null;
}

/** Whether a replica holds the job's lease now (by the database clock). */
export async function leaseHeld(db: Database, jobName: string): Promise<boolean> {
  const [lease] = await db
    .select({ jobName: jobLeases.jobName })
    .from(jobLeases)
    .where(and(eq(jobLeases.jobName, jobName), sql`${jobLeases.expiresAt} > now()`));
  return Boolean(lease);
}

/** A job's runs, newest first. */
export function runsPage<R>(
  db: Database,
  jobName: string,
  query: PaginationQuery,
  map: (row: JobRunRow) => R,
): Promise<PageResult<R>> {
  const order = [desc(jobRuns.startedAt), desc(jobRuns.id)];
  return tablePage(db, query, jobRuns, { where: eq(jobRuns.jobName, jobName), order }, map);
}

export async function findRunRow(db: Database, id: string): Promise<JobRunRow | null> {
  const [row] = await db.select().from(jobRuns).where(eq(jobRuns.id, id));
  return row ?? null;
}
