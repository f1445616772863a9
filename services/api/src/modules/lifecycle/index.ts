// Public surface of the membership lifecycle (docs/lifecycle.md): reminders before the end of a
// membership, their texts, the notification webhook, the notices log and announcements.
import type { JobDefinition } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { announcementsJob } from './announcements.js';
import { graceJob } from './grace.js';
import { inactivityJob } from './inactivity.js';
import { remindersJob } from './reminders.js';

export { lifecycleRoutes } from './routes.js';
export { REMINDERS_JOB, dueThreshold, runReminders } from './reminders.js';
export { ANNOUNCEMENTS_JOB, runAnnouncements } from './announcements.js';
export { GRACE_JOB, runGrace } from './grace.js';
export { INACTIVITY_JOB, runInactivity } from './inactivity.js';
export { sendSharingSuspensionNotice } from './sharing-notice.js';

/**
 * The lifecycle jobs: `expiry_reminders` on `REMINDER_CRON`, `announcements` every minute,
 * `media_account_cleanup` hourly, `inactivity_watch` daily.
 */
export function lifecycleJobs(ctx: ModuleContext): JobDefinition[] {
  return [remindersJob(ctx), announcementsJob(ctx), graceJob(ctx), inactivityJob(ctx)];
}
