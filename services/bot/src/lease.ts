/**
 * The polling lease (40-bot.md §3.2): one row in PostgreSQL that only one bot instance may hold.
 * The statements follow the spec exactly; the database clock decides expiry. The table,
 * `bot_leases`, is the API's (its migration `0011_bot_leases.sql`): the bot never migrates, it
 * waits for the table (`waitForTable`) and exits 1 when the API has not created it in time.
 */
export type Query = (
  sql: string,
  params?: unknown[],
) => Promise<{ rows: Record<string, unknown>[] }>;

export const LEASE_TABLE = 'bot_leases';
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

  /** Whether the API's migrations have created the lease table in this database. */
  async tableExists(): Promise<boolean> {
    const { rows } = await this.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [
      LEASE_TABLE,
    ]);
    return rows[0]?.present === true;
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

/** 40-bot.md §1.3: the line and exit code when the API has not created the table in time. */
export const TABLE_MISSING_LINE = `polling: table ${LEASE_TABLE} not found; start the API first so it applies migrations`;

/**
 * Waits for the lease table, checking every `intervalMs` (5 s) for at most `deadlineMs` (60 s):
 * the API may still be applying its migrations when the bot starts beside it. A database that
 * does not answer is retried the same way. Resolves 'ready', or 'missing' / the last database
 * error's message when time is up.
 */
export async function waitForTable(
  lease: Pick<PollingLease, 'tableExists'>,
  options: {
    deadlineMs?: number;
    intervalMs?: number;
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
    onRetry?: (reason: string) => void;
  } = {},
): Promise<{ ready: true } | { ready: false; missing: boolean; reason: string }> {
  const { deadlineMs = 60_000, intervalMs = 5000 } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + deadlineMs;
  for (;;) {
    let failure: { missing: boolean; reason: string };
    try {
      if (await lease.tableExists()) return { ready: true };
      failure = { missing: true, reason: `table ${LEASE_TABLE} not found` };
    } catch (error) {
      failure = { missing: false, reason: (error as Error).message };
    }
    if (now() >= deadline) return { ready: false, ...failure };
    options.onRetry?.(failure.reason);
    await sleep(intervalMs);
  }
}
