// The scale fixture (issue 33, `npm run bench:scale`) at a small size: it fits the API's own
// schema (every insert passes the migrations' checks and keys), its layout holds what the bench
// relies on, and the same seed builds the same rows.
import { buildScaleCommunity, type SqlRunner } from '@usher/testkit';
import pg from 'pg';
import { hashPassword } from '../../src/security/passwords.js';
import {
  createMigratedPglite,
  createTestDatabase,
  TEST_DATABASE_URL,
} from '../support/database.js';

const NOW = new Date('2026-12-07T12:00:00.000Z');

async function freshRunner(): Promise<{ db: SqlRunner; close(): Promise<void> }> {
  if (TEST_DATABASE_URL) {
    const t = await createTestDatabase();
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    return { db: client, close: async () => (await client.end(), await t.close()) };
  }
  const lite = await createMigratedPglite();
  return { db: lite, close: () => lite.close() };
}

const one = async <T>(db: SqlRunner, text: string, params: unknown[] = []) =>
  (await db.query(text, params)).rows[0] as T;

describe('the scale fixture', () => {
  let a: Awaited<ReturnType<typeof freshRunner>>;
  let b: Awaited<ReturnType<typeof freshRunner>>;
  let hash: string;
  beforeAll(async () => {
    hash = await hashPassword('scale-password-1234');
    [a, b] = [await freshRunner(), await freshRunner()];
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('should build every table of a 200-member community with the layout it reports', async () => {
    const layout = await buildScaleCommunity(a.db, { members: 200, now: NOW, passwordHash: hash });
    expect(layout.counts).toMatchObject({
      users: 201, // and the administrator
      payments: 200,
      redeem_codes: 20,
      redemptions: 100,
      media_requests: 40,
      audit_log: 1000,
      device_actions: 100,
      member_notices: 200,
      announcement_recipients: 200,
      ranking_batches: 457,
      playback_rankings: 457 * 20,
      calendar_series: 500,
      calendar_episodes: 10_000,
      calendar_follows: 100,
    });
    expect(layout.due).toEqual({ from: 1, to: 20 });
    // The due members: ended within the hour, media account still on, linked.
    const due = await one<{ n: number }>(
      a.db,
      `select count(*)::int as n from users where expires_at <= $1 and expires_at > $2
         and not media_disabled and media_user_id is not null`,
      [NOW.toISOString(), new Date(NOW.getTime() - 3_600_000).toISOString()],
    );
    expect(due.n).toBe(20);
    const expiring = await one<{ n: number }>(
      a.db,
      `select count(*)::int as n from users where expires_at > $1 and expires_at < $2`,
      [NOW.toISOString(), new Date(NOW.getTime() + 3 * 86_400_000).toISOString()],
    );
    expect(expiring.n).toBe(20);
    const m42 = await one<{ username: string; media_user_id: string }>(
      a.db,
      `select username, media_user_id from users where username = $1`,
      [layout.username(42)],
    );
    const signIn = layout.activeMembers(3).map(layout.username);
    const able = await a.db.query(
      `select username from users where username = any($1) and is_active
         and media_user_id is not null order by username`,
      [signIn],
    );
    expect(able.rows).toHaveLength(3);
    expect(m42).toEqual({ username: 'm000042', media_user_id: layout.mediaUserId(42) });
  }, 60_000);

  it('should build the same rows from the same seed', async () => {
    await buildScaleCommunity(b.db, { members: 200, now: NOW, passwordHash: hash });
    const digest = (db: SqlRunner, table: string, cols: string) =>
      one<{ d: string }>(db, `select md5(string_agg(${cols}, ',' order by id)) as d from ${table}`);
    for (const [table, cols] of [
      ['users', `id::text || username || coalesce(expires_at::text, '')`],
      ['audit_log', `id::text || at::text || action`],
      ['payments', `id::text || status || amount`],
    ] as const) {
      expect(await digest(b.db, table, cols)).toEqual(await digest(a.db, table, cols));
    }
  }, 60_000);
});
