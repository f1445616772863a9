// Public surface of the membership lifecycle (docs/lifecycle.md): reminders before the end of a
// membership, their texts and the notification webhook.
import type { JobDefinition } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { remindersJob } from './reminders.js';

export { lifecycleRoutes } from './routes.js';
export { REMINDERS_JOB, dueThreshold, runReminders } from './reminders.js';

/** The lifecycle jobs: `expiry_reminders` on `REMINDER_CRON`. */
export function lifecycleJobs(ctx: ModuleContext): JobDefinition[] {
  return [remindersJob(ctx)];
}
