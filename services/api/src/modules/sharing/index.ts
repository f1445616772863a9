// Public surface of account sharing (docs/sharing.md): its routes and the `sharing_watch` job.
import type { JobDefinition } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { sharingJob } from './watch.js';

export { sharingRoutes } from './routes.js';
export { HOUR_SLOTS, SHARING_JOB, rejudgeDue, rejudgeSlot, runSharingWatch } from './watch.js';
export { GeoLocator, sharedLocator, type Locator, type Place } from './geo.js';
export { originOf } from './network.js';

export function sharingJobs(ctx: ModuleContext): JobDefinition[] {
  return [sharingJob(ctx)];
}
