// Public surface of the rankings module (daily and weekly play rankings, their jobs and the push
// to the bot). app.ts imports from here, never from the files behind it.
export { rankingRoutes } from './routes.js';
export { rankingJobs, RANKING_DAILY_JOB, RANKING_WEEKLY_JOB } from './jobs.js';
