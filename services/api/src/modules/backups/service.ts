// Backups as the admin sees them (issue 32; docs/operations.md "Backup and restore"): the files in
// BACKUP_DIR, the `backup` job that writes them (BACKUP_CRON, BACKUP_KEEP), a run now and a
// download. Restoring is an operator command (`usher restore`), never an HTTP route: it replaces
// the database the API is serving from.
import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { BackupList } from '@usher/contracts';
import { recordAudit } from '../../audit-log/audit.js';
import { createBackup } from '../../backup/backup.js';
import { BACKUP_NAME, backupFileName, listBackups, pruneBackups } from '../../backup/files.js';
import { migrationsFolder } from '../../db/migrations-folder.js';
import { AppError } from '../../errors/app-error.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import { VERSION } from '../../version.js';
import type { Caller, ModuleContext } from '../context.js';
import { runJobNow, summarizeJob } from '../jobs/index.js';

export const BACKUP_JOB = 'backup';

const directory = (ctx: ModuleContext) => resolve(ctx.config.BACKUP_DIR);

export async function listBackupFiles(ctx: ModuleContext): Promise<BackupList> {
  const files = await listBackups(directory(ctx));
  return {
    data: files.map((f) => ({
      name: f.name,
      bytes: f.bytes,
      createdAt: f.modifiedAt.toISOString(),
    })),
    total: files.length,
    directory: directory(ctx),
    keep: await ctx.settings.store.get('BACKUP_KEEP'),
    job: await summarizeJob(ctx, BACKUP_JOB),
  };
}

/** Starts the `backup` job now (202 with its run id), as `POST /admin/jobs/backup/run` would. */
export function runBackupNow(ctx: ModuleContext, caller: Caller): Promise<{ runId: string }> {
  return runJobNow(ctx, BACKUP_JOB, {}, caller);
}

/** A backup file's bytes; only names the list shows, so no other file can be read. */
export async function openBackup(
  ctx: ModuleContext,
  name: string,
  caller: Caller,
): Promise<{ name: string; bytes: number; body: ReadableStream }> {
  const file = BACKUP_NAME.test(name)
    ? (await listBackups(directory(ctx))).find((f) => f.name === name)
    : undefined;
  if (!file) throw new AppError('BACKUP_NOT_FOUND', 'No backup file of that name');
  await recordAudit(ctx.db, {
    actor: caller.actor,
    action: 'backup.download',
    target: { type: 'backup', id: file.name },
    details: { bytes: file.bytes },
    ...caller.meta,
  });
  const stream = createReadStream(join(directory(ctx), file.name));
  return { name: file.name, bytes: file.bytes, body: Readable.toWeb(stream) as ReadableStream };
}

/** Writes one backup file and prunes the folder to BACKUP_KEEP files. */
export async function runBackupJob(ctx: ModuleContext, run: JobRunContext): Promise<JobOutcome> {
  const dir = directory(ctx);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const made = await createBackup(
    { db: ctx.db, kind: ctx.database.kind },
    join(dir, backupFileName(ctx.now())),
    { migrationsFolder: migrationsFolder(), appVersion: VERSION, now: ctx.now },
  );
  const pruned = await pruneBackups(dir, await ctx.settings.store.get('BACKUP_KEEP'));
  run.logger.info({ file: made.path, bytes: made.bytes, pruned }, 'backup written');
  return {
    summary: {
      file: made.path.slice(dir.length + 1),
      bytes: made.bytes,
      rows: made.rows,
      tables: made.tables,
      schema: made.header.schema.latest,
      pruned,
    },
  };
}

export function backupJob(ctx: ModuleContext): JobDefinition {
  return {
    name: BACKUP_JOB,
    description: 'Writes a backup file to BACKUP_DIR and keeps the newest BACKUP_KEEP',
    // Off unless BACKUP_CRON is set (an empty schedule arms no timer).
    schedule: '',
    scheduleSetting: 'BACKUP_CRON',
    run: (run) => runBackupJob(ctx, run),
  };
}
