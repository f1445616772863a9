import { auditEntrySchema, auditQuerySchema, cappedPageOf } from '@usher/contracts';
import { defineRoute, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { listAudit } from './service.js';

export function auditRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/audit-log',
      auth: 'admin',
      summary: 'Who did what, newest first; `action` matches by prefix, days are inclusive',
      tags: ['audit'],
      request: { query: auditQuerySchema },
      responses: { 200: { description: 'Entries', schema: cappedPageOf(auditEntrySchema) } },
      handler: async (c, { query }) => c.json(await listAudit(ctx, query)),
    }),
  ];
}
