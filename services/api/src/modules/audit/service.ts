// The audit log reader (20-api.md §6 "Audit"). Rows are written by `recordAudit` in the
// transaction of the change they describe; this module only reads them.
import type { AuditEntry, AuditQuery } from '@usher/contracts';
import type { AuditLogRow } from '../../db/schema/index.js';
import { paginateCapped, type PageResult } from '../../db/paging.js';
import type { ModuleContext } from '../context.js';
import { auditFilter, auditPage, countAudit } from './queries.js';

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
  const where = auditFilter(query, zone);
  return paginateCapped(query, countAudit(ctx.db, where), async (limit, offset) =>
    (await auditPage(ctx.db, where, limit, offset)).map(toEntry),
  );
}
