// Public surface of the backups module (issue 32): admin routes and the `backup` job.
export { backupRoutes } from './routes.js';
export { BACKUP_JOB, backupJob, runBackupJob } from './service.js';
