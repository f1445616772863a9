// Media-server calls held on a promise the test controls, and the proof that nothing waits on
// the database meanwhile (docs/architecture.md: no outbound call inside a transaction). Used by
// the access sync, forced sync and retry worker tests.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { MediaServer } from '../../src/integrations/media-server/port.js';
import { queryRows } from '../../src/db/sql.js';
import type { MediaAccessWriter } from '../../src/modules/membership/index.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import type { World } from './helpers.js';

type HeldMethod = 'setDisabled' | 'updatePolicy' | 'deleteUser';

/** A media-server call the gate is holding; `release` lets it through to the fake. */
export interface Held {
  method: HeldMethod;
  mediaUserId: string;
  /** The state written (`setDisabled`, `updatePolicy`); undefined for `deleteUser`. */
  disabled?: boolean;
  /** The whole patch of a held `updatePolicy`. */
  patch?: Record<string, unknown>;
  release(): void;
}

interface Rule {
  method: HeldMethod;
  mediaUserId: string;
  disabled?: boolean;
  arrived: (held: Held) => void;
}

/**
 * Holds chosen calls before they reach the media server: `setDisabled` of the app's access
 * switch (`wrap`, for `startWorld`'s `wrapMediaAccess`) and `updatePolicy`/`deleteUser` of the
 * adapter (`wrapServer`, for `wrapMediaServer`). Calls no rule matches go straight through.
 */
export function callGate() {
  const rules: Rule[] = [];
  const holding = new Set<Held>();
  const pass = async (call: Omit<Held, 'release'>): Promise<void> => {
    const i = rules.findIndex(
      (r) =>
        r.method === call.method &&
        r.mediaUserId === call.mediaUserId &&
        (r.disabled === undefined || r.disabled === call.disabled),
    );
    if (i < 0) return;
    const [rule] = rules.splice(i, 1);
    await new Promise<void>((resolve) => {
      const held: Held = {
        ...call,
        release: () => {
          holding.delete(held);
          resolve();
        },
      };
      holding.add(held);
      rule!.arrived(held);
    });
  };
  const arrival = (rule: Omit<Rule, 'arrived'>) =>
    new Promise<Held>((arrived) => rules.push({ ...rule, arrived }));
  return {
    wrap: (writer: MediaAccessWriter): MediaAccessWriter => ({
      setDisabled: async (mediaUserId, disabled) => {
        await pass({ method: 'setDisabled', mediaUserId, disabled });
        return writer.setDisabled(mediaUserId, disabled);
      },
    }),
    wrapServer: (server: MediaServer): MediaServer =>
      new Proxy(server, {
        get(target, prop) {
          if (prop === 'updatePolicy') {
            return async (
              mediaUserId: string,
              patch: Parameters<MediaServer['updatePolicy']>[1],
            ) => {
              await pass({
                method: 'updatePolicy',
                mediaUserId,
                disabled: patch.disabled,
                patch: { ...patch },
              });
              return target.updatePolicy(mediaUserId, patch);
            };
          }
          if (prop === 'deleteUser') {
            return async (mediaUserId: string) => {
              await pass({ method: 'deleteUser', mediaUserId });
              return target.deleteUser(mediaUserId);
            };
          }
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    /** Holds the next call writing `disabled` for this media user; resolves once it is held. */
    hold: (mediaUserId: string, disabled: boolean) =>
      arrival({ method: 'setDisabled', mediaUserId, disabled }),
    /** Holds the adapter's next `updatePolicy` (any state, unless given) for this media user. */
    holdPolicy: (mediaUserId: string, disabled?: boolean) =>
      arrival({ method: 'updatePolicy', mediaUserId, disabled }),
    /** Holds the adapter's next `deleteUser` of this media user. */
    holdDelete: (mediaUserId: string) => arrival({ method: 'deleteUser', mediaUserId }),
    /** Drops the rules and lets every held call through (so a failed test leaves nothing hung). */
    releaseAll: () => {
      rules.length = 0;
      for (const held of [...holding]) held.release();
    },
  };
}

/** Rejects with `what` when `promise` has not settled within `ms` (instead of hanging the test). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * While a media-server call is held: another query answers at once (on PGlite, one connection,
 * it would wait for any open transaction) and no advisory lock of this database is held; on
 * PostgreSQL no pool connection is checked out and no session sits `idle in transaction`.
 */
export async function expectNoTransactionOpen(w: World): Promise<void> {
  const [locks] = await within(
    queryRows<{ n: number }>(
      w.t.context.db,
      sql`select count(*)::int as n from pg_locks where locktype = 'advisory'
        and database = (select oid from pg_database where datname = current_database())`,
    ),
    1000,
    'a query while the media call waits',
  );
  expect(locks!.n).toBe(0);
  if (!TEST_DATABASE_URL) return;
  const pool = (w.t.context.db as unknown as { $client: pg.Pool }).$client;
  expect(pool.totalCount - pool.idleCount).toBe(0);
  expect(pool.waitingCount).toBe(0);
  const observer = new pg.Client({ connectionString: w.database.url });
  await observer.connect();
  try {
    const { rows } = await observer.query<{ state: string | null }>(
      `select state from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()
         and state like 'idle in transaction%'`,
    );
    expect(rows).toEqual([]);
  } finally {
    await observer.end();
  }
}
