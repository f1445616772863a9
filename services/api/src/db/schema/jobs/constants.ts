export const JOB_TRIGGERS = ['schedule', 'manual', 'startup'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];
export const JOB_RUN_STATUSES = ['running', 'succeeded', 'failed', 'skipped', 'abandoned'] as const;
export type JobRunStatus = (typeof JOB_RUN_STATUSES)[number];
