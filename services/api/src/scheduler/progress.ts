import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { jobRuns } from '../db/schema/index.js';

/**
 * Writes a long job's progress into its run's summary (`{progress}`) while the run is still
 * `running`, so an admin polling `GET /admin/job-runs/:runId` sees it move (60-web.md §5). The
 * final summary the job returns replaces it when the run ends.
 */
export async function writeRunProgress(
  db: Database,
  runId: string,
  progress: Record<string, unknown>,
): Promise<void> {
  await db
    .update(jobRuns)
    .set({ summary: { progress } })
    .where(sql`${jobRuns.id} = ${runId} and ${jobRuns.status} = 'running'`);
}
