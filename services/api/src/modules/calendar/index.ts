// Public surface of the watch-calendar module (weeks, follows, the `calendar_sync` job with the
// requests' reconcile pass, and the webhook's calendar step). app.ts and the webhooks module
// import from here.
export { calendarRoutes } from './routes.js';
export { calendarJobs, CALENDAR_SYNC_JOB } from './sync.js';
export { markEpisodesReady } from './ready.js';
