import { auditEntrySchema, auditQuerySchema, cappedPageOf } from '@usher/contracts';
import { type RouteDef, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { listAudit } from './service.js';

const api = routeGroup('audit');

export function auditRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.admin.get('/api/v1/admin/audit-log', {
      summary: 'Who did what, newest first; `action` matches by prefix, days are inclusive',
      request: { query: auditQuerySchema },
      responses: { 200: { description: 'Entries', schema: cappedPageOf(auditEntrySchema) } },
      json: ({ query }) => listAudit(ctx, query),
    }),
  ];
}
