// Public surface of the media-quality module (reports per library and `all`, low-quality
// drill-down, the `media_quality_scan` job). app.ts imports from here.
export { qualityRoutes } from './routes.js';
export { qualityJobs, QUALITY_SCAN_JOB } from './scan.js';
