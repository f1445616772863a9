// Public surface of the jobs module (admin job runs and manual triggers). app.ts imports from here.
export { jobRoutes } from './routes.js';
export { runJobNow, summarizeJob } from './service.js';
