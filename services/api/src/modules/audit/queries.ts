// The audit module's SQL (docs/architecture.md "Module shape"): the reader's filters and page.
import type { AuditQuery } from '@usher/contracts';
import { and, desc, eq, getTableColumns, like, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { auditLog, type AuditLogRow } from '../../db/schema/index.js';
import { countUpTo, dayRange, escapeLike, one } from '../../db/paging.js';

/** The list's WHERE: `action` by prefix, `from`/`to` inclusive days in `zone`, the rest equal. */
export function auditFilter(query: AuditQuery, zone: string): SQL | undefined {
  const filters: SQL[] = [...dayRange(auditLog.at, query, zone)];
  if (query.actorId) filters.push(eq(auditLog.actorId, query.actorId));
  if (query.action) filters.push(like(auditLog.action, `${escapeLike(query.action)}%`));
  if (query.targetType) filters.push(eq(auditLog.targetType, query.targetType));
  if (query.targetId) filters.push(eq(auditLog.targetId, query.targetId));
  return filters.length ? and(...filters) : undefined;
}

/** How many entries match, counted up to the cap (issue 33's `totalCapped`). */
export function countAudit(db: Database, where: SQL | undefined) {
  return countUpTo(db, db.select(one).from(auditLog).where(where));
}

/** One page of entries, newest first. */
export async function auditPage(
  db: Database,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<AuditLogRow[]> {
  // A deferred join (issue 33): the offset walks only the (at, id) index — an index-only scan
  // — and the page's twenty rows are read whole afterwards, so `?page=2000` of 500 000 rows
  // no longer reads 40 000 rows with their details to throw them away.
  const page = db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit)
    .offset(offset)
    .as('page');
  return db
    .select(getTableColumns(auditLog))
    .from(auditLog)
    .innerJoin(page, eq(auditLog.id, page.id))
    .orderBy(desc(auditLog.at), desc(auditLog.id));
}
