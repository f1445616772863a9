// Migration 0010 moves the reminders already sent (`membership_reminders`, one row per threshold
// with a channel map) into `member_notices` (one row per channel), so an upgrade reminds nobody
// twice: the job's claim finds each channel's row taken.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from '../../src/db/migrate.js';
import { queryRows } from '../../src/db/sql.js';
import { reminderRef } from '../../src/modules/lifecycle/reminders.js';
import { createTestDatabase, ENGINE, MIGRATIONS, type TestDatabase } from '../support/database.js';

/** The migrations folder as it was up to `last` (inclusive). */
function migrationsUpTo(last: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'usher-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === last);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe(`migration 0010_member_notices (${ENGINE})`, () => {
  let database: TestDatabase;
  let before: string;

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    before = migrationsUpTo('0009_membership_reminders');
  }, 60_000);
  afterAll(async () => {
    await database.close();
    rmSync(before, { recursive: true, force: true });
  });

  it("should carry every sent reminder's channels over, one row per channel", async () => {
    const { db } = database.handle;
    await migrate(db, before);
    const end = new Date('2027-01-10T08:30:00.123Z');
    await db.execute(sql`insert into users (id, username, password_hash, registered_via, expires_at)
      values ('01900000-0000-7000-8000-000000000001', 'carried', 'x', 'admin', ${end.toISOString()})`);
    await db.execute(sql`insert into membership_reminders (id, user_id, expires_at, days, channels)
      values
        (gen_random_uuid(), '01900000-0000-7000-8000-000000000001', ${end.toISOString()}, 7,
          '{"email":"sent","messenger":"failed"}'),
        (gen_random_uuid(), '01900000-0000-7000-8000-000000000001', ${end.toISOString()}, 3,
          '{}')`);

    const upgraded = await migrate(db, MIGRATIONS);
    expect(upgraded.applied[0]).toBe('0010_member_notices');
    const rows = await queryRows<{ kind: string; ref: string; channel: string; status: string }>(
      db,
      sql`select kind, ref, channel, status from member_notices order by channel`,
    );
    // The ref is the one the job writes, so its claims find these rows.
    expect(rows).toEqual([
      { kind: 'expiry_reminder', ref: reminderRef(end, 7), channel: 'email', status: 'sent' },
      { kind: 'expiry_reminder', ref: reminderRef(end, 7), channel: 'messenger', status: 'failed' },
    ]);
    const gone = await queryRows<{ name: string | null }>(
      db,
      sql`select to_regclass('public.membership_reminders')::text as name`,
    );
    expect(gone).toEqual([{ name: null }]);
  });
});
