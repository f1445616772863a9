// The audit log reader (20-api.md §6 "Audit"). Rows are written by `recordAudit` in the
// transaction of the change they describe; this module only reads them.
import type { AuditEntry, AuditQuery } from '@usher/contracts';
import { and, desc, eq, getTableColumns, like, type SQL } from 'drizzle-orm';
import { auditLog, type AuditLogRow } from '../../db/schema/index.js';
import {
  countUpTo,
  dayRange,
  escapeLike,
  one,
  paginateCapped,
  type PageResult,
} from '../../db/paging.js';
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

/** Entries newest first; `action` matches by prefix, `from`/`to` are inclusive days in the zone. */
export async function listAudit(
  ctx: ModuleContext,
  query: AuditQuery,
): Promise<PageResult<AuditEntry> & { totalCapped: boolean }> {
  const zone = await ctx.settings.store.getString('SCHEDULE_TIMEZONE');
  const filters: SQL[] = [...dayRange(auditLog.at, query, zone)];
  if (query.actorId) filters.push(eq(auditLog.actorId, query.actorId));
  if (query.action) filters.push(like(auditLog.action, `${escapeLike(query.action)}%`));
  if (query.targetType) filters.push(eq(auditLog.targetType, query.targetType));
  if (query.targetId) filters.push(eq(auditLog.targetId, query.targetId));
  const where = filters.length ? and(...filters) : undefined;
  const total = countUpTo(ctx.db, ctx.db.select(one).from(auditLog).where(where));
  return paginateCapped(query, total, async (limit, offset) => {
    // A deferred join (issue 33): the offset walks only the (at, id) index — an index-only scan
    // — and the page's twenty rows are read whole afterwards, so `?page=2000` of 500 000 rows
    // no longer reads 40 000 rows with their details to throw them away.
    const page = ctx.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit)
      .offset(offset)
      .as('page');
    const rows = await ctx.db
      .select(getTableColumns(auditLog))
      .from(auditLog)
      .innerJoin(page, eq(auditLog.id, page.id))
      .orderBy(desc(auditLog.at), desc(auditLog.id));
    return rows.map(toEntry);
  });
}
