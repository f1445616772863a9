import { backupListSchema, runJobResponseSchema, safeString } from '@usher/contracts';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { listBackupFiles, openBackup, runBackupNow } from './service.js';

export function backupRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/backups',
      auth: 'admin',
      summary: 'Backup files in BACKUP_DIR (newest first) and the backup job',
      tags: ['backups'],
      responses: { 200: { description: 'Backups', schema: backupListSchema } },
      handler: async (c) => c.json(await listBackupFiles(ctx)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/backups',
      auth: 'admin',
      summary: 'Run the backup job now (poll /admin/job-runs/{runId})',
      tags: ['backups'],
      responses: { 202: { description: 'Started', schema: runJobResponseSchema } },
      errors: ['JOB_RUNNING'],
      handler: async (c, caller) => c.json(await runBackupNow(ctx, caller), 202),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/backups/:name',
      auth: 'admin',
      summary: 'Download one backup file',
      tags: ['backups'],
      request: { params: z.strictObject({ name: safeString() }) },
      responses: { 200: { description: 'The gzip file', contentType: 'application/gzip' } },
      errors: ['BACKUP_NOT_FOUND'],
      handler: async (c, { params, ...caller }) => {
        const file = await openBackup(ctx, params.name, caller);
        return c.body(file.body, 200, {
          'Content-Type': 'application/gzip',
          'Content-Length': String(file.bytes),
          'Content-Disposition': `attachment; filename="${file.name}"`,
          'Cache-Control': 'no-store',
        });
      },
    }),
  ];
}
