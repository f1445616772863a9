// Helpers of the quality suites: library ids from the API, and waiting for a scan's job run.
import { jobRunSchema, qualityLibraryListSchema, type JobRun } from '@usher/contracts';
import type { MediaWorld } from '../media/harness.js';

export async function libraryIds(w: MediaWorld): Promise<Record<string, string>> {
  const res = await w.get('/api/v1/admin/media-quality/libraries', w.adminToken);
  expect(res.status).toBe(200);
  const list = qualityLibraryListSchema.parse(await res.json());
  return Object.fromEntries(list.data.map((l) => [l.collectionType ?? l.name, l.libraryId]));
}

export async function readRun(w: MediaWorld, runId: string): Promise<JobRun> {
  const res = await w.get(`/api/v1/admin/job-runs/${runId}`, w.adminToken);
  return jobRunSchema.parse(await res.json());
}

/** Polls the run until it ends; `onPoll` sees every state on the way. */
export async function waitForRun(
  w: MediaWorld,
  runId: string,
  onPoll: (run: JobRun) => void = () => {},
  everyMs = 20,
): Promise<JobRun> {
  for (let i = 0; i < 3000; i++) {
    const run = await readRun(w, runId);
    onPoll(run);
    if (run.status !== 'running') return run;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error('scan did not finish');
}

export async function startScan(w: MediaWorld, libraryId: string): Promise<Response> {
  return w.t.call('post', `/api/v1/admin/media-quality/libraries/${libraryId}/scan`, {
    token: w.adminToken,
  });
}
