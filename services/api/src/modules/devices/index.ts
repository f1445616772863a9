// Public surface of the devices module (the device list and stats, single sign-out, the client
// blacklist with its enforcement job, the action log). app.ts imports from here.
export { deviceRoutes } from './routes.js';
export { devicesJobs, ENFORCE_JOB } from './jobs.js';
