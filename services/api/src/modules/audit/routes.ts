import { auditEntrySchema, auditQuerySchema, pageOf, type AuditEntry } from '@usher/contracts';
import { and, count, desc, eq, gte, like, lt, type SQL } from 'drizzle-orm';
import { auditLog, type AuditLogRow } from '../../db/schema/index.js';
import { defineRoute, type RouteDef } from '../../http/route.js';
import { nextDay, startOfZonedDay } from '../../http/zoned-day.js';
import type { ModuleContext } from '../context.js';

function toEntry(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorType: row.actorType as AuditEntry['actorType'],
    actorId: row.actorId,
    actorLabel: row.actorLabel,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details ?? null,
    ip: row.ip,
    requestId: row.requestId,
  };
}

/** LIKE metacharacters in a user-given prefix are matched literally. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export function auditRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/audit-log',
      auth: 'admin',
      summary: 'Who did what, newest first; `action` matches by prefix, days are inclusive',
      tags: ['audit'],
      request: { query: auditQuerySchema },
      responses: { 200: { description: 'Entries', schema: pageOf(auditEntrySchema) } },
      handler: async (c, { query }) => {
        const zone = await ctx.settings.store.getString('SCHEDULE_TIMEZONE');
        const filters: SQL[] = [];
        if (query.actorId) filters.push(eq(auditLog.actorId, query.actorId));
        if (query.action) filters.push(like(auditLog.action, `${escapeLike(query.action)}%`));
        if (query.targetType) filters.push(eq(auditLog.targetType, query.targetType));
        if (query.targetId) filters.push(eq(auditLog.targetId, query.targetId));
        if (query.from) filters.push(gte(auditLog.at, startOfZonedDay(query.from, zone)));
        if (query.to) filters.push(lt(auditLog.at, startOfZonedDay(nextDay(query.to), zone)));
        const where = filters.length ? and(...filters) : undefined;
        const [total] = await ctx.db.select({ n: count() }).from(auditLog).where(where);
        const rows = await ctx.db
          .select()
          .from(auditLog)
          .where(where)
          .orderBy(desc(auditLog.at), desc(auditLog.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize);
        return c.json({
          data: rows.map(toEntry),
          total: total?.n ?? 0,
          page: query.page,
          pageSize: query.pageSize,
        });
      },
    }),
  ];
}
