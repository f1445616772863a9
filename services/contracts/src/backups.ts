import { z } from 'zod';
import { isoInstant, safeString } from './common.js';
import { jobSummarySchema } from './jobs.js';

/** One backup file in `BACKUP_DIR` (docs/operations.md "Backup and restore"). */
export const backupFileSchema = z
  .object({
    name: safeString(),
    bytes: z.number().int().nonnegative(),
    createdAt: isoInstant,
  })
  .meta({ id: 'BackupFile' });
export type BackupFile = z.infer<typeof backupFileSchema>;

/** `GET /admin/backups`: the files (newest first) and the `backup` job that writes them. */
export const backupListSchema = z.object({
  data: z.array(backupFileSchema),
  total: z.number().int().nonnegative(),
  /** The folder on the API's host or volume (`BACKUP_DIR`), as the API resolved it. */
  directory: safeString(),
  /** `BACKUP_KEEP`: how many files the job keeps. */
  keep: z.number().int().positive(),
  job: jobSummarySchema,
});
export type BackupList = z.infer<typeof backupListSchema>;
