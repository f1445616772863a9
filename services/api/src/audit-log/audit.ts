import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../db/client.js';
import { auditLog } from '../db/schema/index.js';
import type { ActorType } from '../db/schema/audit-log/constants.js';

export interface AuditActor {
  type: ActorType;
  id: string | null;
  /** Username, `messenger:<id>`, `job:<name>`, `stripe`, `media-server`. */
  label: string;
}

/** A scheduled job as the actor of what it does: `job:<name>`. */
export function jobActor(job: string): AuditActor {
  return { type: 'system', id: null, label: `job:${job}` };
}

/** An account as the actor of what it does: `admin` or `user` by its role, by id and name. */
export function accountActor(account: { id: string; role: string; username: string }): AuditActor {
  return {
    type: account.role === 'admin' ? 'admin' : 'user',
    id: account.id,
    label: account.username,
  };
}

export interface AuditEntry {
  actor: AuditActor;
  /** `area.verb`, e.g. `auth.login`, `user.password_change`. */
  action: string;
  target?: { type: string; id: string | null };
  /** Before/after of changed fields — never passwords, codes, tokens or secret values. */
  details?: Record<string, unknown>;
  ip?: string | null;
  requestId?: string | null;
}

/**
 * Writes one audit row. Pass the transaction handle when the audited change runs in one, so the
 * row commits (or rolls back) with the change it describes.
 */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    id: uuidv7(),
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorLabel: entry.actor.label,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    details: entry.details ?? null,
    ip: entry.ip ?? null,
    requestId: entry.requestId ?? null,
  });
}

/** Who acts, from where: what `recordAudit` needs of a signed-in caller (a route's `Caller`). */
export interface AuditSource {
  actor: AuditActor;
  meta: { ip: string | null; requestId: string };
}

/** One audit row for a caller's action on a target, with the caller's address and request id. */
export function auditCaller(
  db: Database,
  caller: AuditSource,
  action: string,
  target: { type: string; id: string | null },
  details?: Record<string, unknown>,
): Promise<void> {
  return recordAudit(db, { actor: caller.actor, action, target, details, ...caller.meta });
}
