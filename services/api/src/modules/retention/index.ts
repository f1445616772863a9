// Public surface of the retention module: the daily `cleanup` job (10-data.md §11).
export { CLEANUP_BATCH, CLEANUP_JOB, cleanupJob, runCleanup } from './cleanup.js';
export { RETENTION_RULES, type RetentionRule } from './rules.js';
