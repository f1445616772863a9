// Setting a password the §8.3 way, shared by the own change, the email reset and the bot reset:
// members with a linked media account get the media-server password first (if that fails the
// operation stops with 502 and nothing local changes); admins are local only. Then the argon2id
// hash, `token_version + 1` (every earlier token dies) and the audit row in one transaction.
import { recordAudit, type AuditEntry } from '../../audit-log/audit.js';
import { hashPassword } from '../../security/passwords.js';
import type { UserRow } from '../../db/schema/index.js';
import type { ModuleContext } from '../context.js';
import type { Tx } from '../../db/client.js';
import { mediaServerFailure } from '../membership/index.js';
import { withTransaction } from '../../db/transaction.js';
import { writePassword } from './queries.js';

/** Whether Usher manages this account's media-server password (a linked member). */
export function managesMediaPassword(row: Pick<UserRow, 'role' | 'mediaUserId'>): boolean {
  return row.role === 'user' && row.mediaUserId !== null;
}

/** Sets the media-server password of a linked member; 502/503 (`media_server`) on failure. */
export async function setMediaPassword(
  ctx: Pick<ModuleContext, 'integrations'>,
  row: Pick<UserRow, 'role' | 'mediaUserId'>,
  password: string,
): Promise<void> {
  if (!managesMediaPassword(row)) return;
  try {
    const server = await ctx.integrations.mediaServer.get();
    await server.setPassword(row.mediaUserId!, password);
  } catch (err) {
    throw mediaServerFailure(err, 'change your media password');
  }
}

export interface PasswordWrite {
  /** Value of `must_change_password` after the change. */
  mustChangePassword: boolean;
  audit: AuditEntry;
  /** Runs first inside the transaction (e.g. consuming the email code that authorised it). */
  before?: (tx: Tx) => Promise<void>;
}

/**
 * §8.3 in order: media server first (members), then the local hash with token_version + 1.
 * Returns the updated row.
 */
export async function applyNewPassword(
  ctx: Pick<ModuleContext, 'db' | 'integrations' | 'now'>,
  row: UserRow,
  password: string,
  write: PasswordWrite,
): Promise<UserRow> {
  await setMediaPassword(ctx, row, password);
  const passwordHash = await hashPassword(password);
  const now = ctx.now();
  return withTransaction(ctx, async (tx) => {
    await write.before?.(tx);
    const mustChangePassword = write.mustChangePassword;
    const updated = await writePassword(tx, row.id, { passwordHash, mustChangePassword }, now);
    await recordAudit(tx, write.audit);
    return updated;
  });
}
