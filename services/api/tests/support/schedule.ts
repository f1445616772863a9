// What the scheduler ran: the job_runs rows a job's schedule started (not manual or start-up runs).
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client.js';
import { jobRuns } from '../../src/db/schema/index.js';

/** A job's scheduled runs, oldest slot first: the slot as an ISO instant and how it ended. */
export async function scheduledRuns(
  db: Database,
  jobName: string,
): Promise<{ slot: string; status: string }[]> {
  const rows = await db
    .select({ slot: jobRuns.scheduledFor, status: jobRuns.status })
    .from(jobRuns)
    .where(and(eq(jobRuns.jobName, jobName), eq(jobRuns.trigger, 'schedule')))
    .orderBy(asc(jobRuns.scheduledFor));
  return rows.map((r) => ({ slot: r.slot!.toISOString(), status: r.status }));
}

/**
 * The slots a job ran on its schedule, oldest first, as UTC clock times (`HH:MM:SS`, or `HH:MM`
 * with `precision: 'minutes'`) — what a schedule test compares against the cron expression.
 */
export async function scheduledSlots(
  db: Database,
  jobName: string,
  precision: 'seconds' | 'minutes' = 'seconds',
): Promise<string[]> {
  const end = precision === 'seconds' ? 19 : 16;
  return (await scheduledRuns(db, jobName)).map((r) => r.slot.slice(11, end));
}
