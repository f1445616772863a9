/**
 * The polling lease (40-bot.md §3.2): one row in PostgreSQL that only one bot instance may hold.
 * The statements follow the spec exactly; the database clock decides expiry.
 *
 * Drift, documented in docs/architecture.md: the API's migrations do not create `bot_leases`,
 * so the bot creates its own table, `bot_polling_lease`, idempotently at start. A different name
 * keeps a later API migration that adds `bot_leases` from colliding with a table the bot made.
 */
export type Query = (
  sql: string,
  params?: unknown[],
) => Promise<{ rows: Record<string, unknown>[] }>;

export const LEASE_TABLE = 'bot_polling_lease';
export const LEASE_NAME = 'messenger_polling';
export const LEASE_SECONDS = 90;
export const RENEW_EVERY_MS = 30_000;

export type AcquireResult =
  { held: true; expiresAt: Date } | { held: false; owner: string; expiresAt: Date | null };

const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

export class PollingLease {
  constructor(
    private readonly query: Query,
    readonly ownerId: string,
  ) {}

  async ensureTable(): Promise<void> {
    const ddl = `CREATE TABLE IF NOT EXISTS ${LEASE_TABLE} (
      name text PRIMARY KEY,
      owner_id text NOT NULL,
      expires_at timestamptz NOT NULL,
      acquired_at timestamptz NOT NULL,
      renewed_at timestamptz NOT NULL
    )`;
    try {
      await this.query(ddl);
    } catch (error) {
      // Two instances creating the table at the same moment can collide in the catalog
      // (unique_violation on pg_type); the table exists afterwards, so once more settles it.
      if ((error as { code?: string }).code !== '23505') throw error;
      await this.query(ddl);
    }
  }

  async acquire(): Promise<AcquireResult> {
    const { rows } = await this.query(
      `INSERT INTO ${LEASE_TABLE} (name, owner_id, expires_at, acquired_at, renewed_at)
       VALUES ($2, $1, now() + interval '${LEASE_SECONDS} seconds', now(), now())
       ON CONFLICT (name) DO UPDATE SET owner_id = EXCLUDED.owner_id, expires_at = EXCLUDED.expires_at,
         acquired_at = now(), renewed_at = now()
       WHERE ${LEASE_TABLE}.expires_at < now() OR ${LEASE_TABLE}.owner_id = EXCLUDED.owner_id
       RETURNING owner_id, expires_at`,
      [this.ownerId, LEASE_NAME],
    );
    if (rows[0]) return { held: true, expiresAt: toDate(rows[0].expires_at) };
    const holder = await this.query(
      `SELECT owner_id, expires_at FROM ${LEASE_TABLE} WHERE name = $1`,
      [LEASE_NAME],
    );
    const row = holder.rows[0];
    return {
      held: false,
      owner: row ? String(row.owner_id) : 'unknown',
      expiresAt: row ? toDate(row.expires_at) : null,
    };
  }

  /** The new expiry, or null when the lease was lost. */
  async renew(): Promise<Date | null> {
    const { rows } = await this.query(
      `UPDATE ${LEASE_TABLE} SET expires_at = now() + interval '${LEASE_SECONDS} seconds', renewed_at = now()
       WHERE name = $2 AND owner_id = $1 AND expires_at > now() RETURNING expires_at`,
      [this.ownerId, LEASE_NAME],
    );
    return rows[0] ? toDate(rows[0].expires_at) : null;
  }

  async release(): Promise<void> {
    await this.query(`DELETE FROM ${LEASE_TABLE} WHERE name = $2 AND owner_id = $1`, [
      this.ownerId,
      LEASE_NAME,
    ]);
  }
}

export function heldMessage(owner: string, expiresAt: Date | null): string {
  return (
    `polling: lease "${LEASE_NAME}" is held by ${owner} until ${expiresAt?.toISOString() ?? 'unknown'}; ` +
    'another bot instance is polling. Run exactly one polling instance or use MESSENGER_UPDATE_MODE=webhook'
  );
}
