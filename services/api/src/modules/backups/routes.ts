import { backupListSchema, runJobResponseSchema, safeString } from '@usher/contracts';
import { z } from 'zod';
import { type RouteDef, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { listBackupFiles, openBackup, runBackupNow } from './service.js';

const api = routeGroup('backups');

export function backupRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.admin.get('/api/v1/admin/backups', {
      summary: 'Backup files in BACKUP_DIR (newest first) and the backup job',
      responses: { 200: { description: 'Backups', schema: backupListSchema } },
      json: () => listBackupFiles(ctx),
    }),
    api.admin.post('/api/v1/admin/backups', {
      summary: 'Run the backup job now (poll /admin/job-runs/{runId})',
      responses: { 202: { description: 'Started', schema: runJobResponseSchema } },
      errors: ['JOB_RUNNING'],
      handler: async (c, caller) => c.json(await runBackupNow(ctx, caller), 202),
    }),
    api.admin.get('/api/v1/admin/backups/:name', {
      summary: 'Download one backup file',
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
