// Upgrades that hold (issue 32; docs/operations.md "Upgrade and rollback"): a database made by the
// first release's migrations (0000_foundation … 0009_membership_reminders, what every install ran
// before releases started) with rows in every table is carried forward by this code's migrations,
// on PostgreSQL and on PGlite, and the upgraded database answers every GET route without a server
// error. The committed fixture is a backup file of such a database, so the backup format of that
// time is read by this code too.
import { readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorBodySchema } from '@usher/contracts';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { createBackup, restoreBackup } from '../../src/backup/backup.js';
import { verifyBackup } from '../../src/backup/format.js';
import { knownMigrations, migrate } from '../../src/db/migrate.js';
import { queryRows } from '../../src/db/sql.js';
import { createTestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, MIGRATIONS, type TestDatabase } from '../support/database.js';
import { fillRelease010Tables, tableDigests } from '../support/every-table.js';

/** The first release's schema: the migrations up to and including this one. */
const FIRST_SCHEMA = '0009_membership_reminders';
const FIXTURE = join(
  dirname(fileURLToPath(import.meta.url)),
  '../fixtures/upgrade',
  `${FIRST_SCHEMA}.usher-backup.gz`,
);
const ADMIN_ID = '00000000-0000-7000-8000-000000000001';
const KNOWN = knownMigrations(MIGRATIONS);
const FIRST = KNOWN.findIndex((m) => m.tag === FIRST_SCHEMA) + 1;
const LATER = KNOWN.slice(FIRST).map((m) => m.tag);

/** Rows per table, from the digests. */
const counts = (digests: Record<string, string>) =>
  Object.fromEntries(Object.entries(digests).map(([t, d]) => [t, Number(d.split(':')[0])]));

describe(`upgrade from the first release's schema (${ENGINE})`, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    expect(FIRST).toBe(10);
    database = await createTestDatabase({ migrate: false });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  (process.env.USHER_WRITE_UPGRADE_FIXTURE ? it : it.skip)(
    'writes the committed fixture (run once with USHER_WRITE_UPGRADE_FIXTURE=1)',
    async () => {
      const made = await createTestDatabase({ migrate: false });
      try {
        await migrate(made.handle.db, MIGRATIONS, undefined, { only: FIRST });
        await fillRelease010Tables(made.handle.db, 200);
        const version = (
          JSON.parse(readFileSync(join(MIGRATIONS, '../../../package.json'), 'utf8')) as {
            version: string;
          }
        ).version;
        const tmp = `${FIXTURE}.new`;
        await createBackup({ db: made.handle.db, kind: made.handle.kind }, tmp, {
          migrationsFolder: MIGRATIONS,
          appVersion: version,
        });
        renameSync(tmp, FIXTURE);
      } finally {
        await made.close();
      }
    },
  );

  it('should carry a database of the first schema forward with every row kept', async () => {
    await migrate(database.handle.db, MIGRATIONS, undefined, { only: FIRST });
    await fillRelease010Tables(database.handle.db, 500);
    const before = counts(await tableDigests(database.handle.db));
    expect(Object.values(before).every((n) => n > 0)).toBe(true);

    // What the API does at start.
    const { applied } = await migrate(database.handle.db, MIGRATIONS);
    expect(applied).toEqual(LATER);
    const after = counts(await tableDigests(database.handle.db));
    // Every table the later migrations keep keeps its rows; one they replace hands its rows on.
    for (const [table, rows] of Object.entries(before))
      if (table in after) expect([table, after[table]]).toEqual([table, rows]);
    if (!('membership_reminders' in after))
      expect(after.member_notices).toBe(before.membership_reminders);
  }, 60_000);

  it("should restore the first schema's committed backup and migrate it forward", async () => {
    const { header } = await verifyBackup(FIXTURE);
    expect(header.schema.latest).toBe(FIRST_SCHEMA);
    const target = await createTestDatabase();
    try {
      const result = await restoreBackup(target.handle.db, FIXTURE, {
        migrationsFolder: MIGRATIONS,
      });
      expect(result.migrated).toEqual(LATER);
      const after = counts(await tableDigests(target.handle.db));
      for (const t of header.tables)
        if (t.name in after) expect([t.name, after[t.name]]).toEqual([t.name, t.rows]);
      const [row] = await queryRows<{ n: string | number }>(
        target.handle.db,
        sql`select count(*) as n from drizzle.__drizzle_migrations`,
      );
      expect(Number(row!.n)).toBe(KNOWN.length);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('should answer every GET route on the upgraded database without a server error', async () => {
    const t = createTestApp(database.handle);
    const token = (await t.context.tokens.sign({ sub: ADMIN_ID, role: 'admin', ver: 0 })).token;
    const [member] = await queryRows<{ id: string }>(
      database.handle.db,
      sql`select id from users where role = 'user' order by username limit 1`,
    );
    const routes = t.routes.filter((r) => r.method === 'get');
    expect(routes.length).toBeGreaterThan(40);
    const answers: string[] = [];
    for (const route of routes) {
      // A real member where a user is named, a fresh id elsewhere (a 404 is an answer).
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
        name === 'id' && route.path.includes('/users/') ? member!.id : uuidv7(),
      );
      const headers: Record<string, string> =
        route.auth === 'internal' ? { 'x-internal-secret': t.config.INTERNAL_API_SECRET } : {};
      const res = await t.call('GET', path, { token, headers });
      let verdict = 'ok';
      if (res.status >= 500) {
        // Designed answers only: an integration this database has no settings for.
        const body = errorBodySchema.safeParse(await res.json().catch(() => null));
        const code = body.success ? body.data.error.code : 'no error body';
        verdict = ['NOT_CONFIGURED', 'UPSTREAM_UNAVAILABLE'].includes(code) ? 'ok' : code;
      }
      answers.push(`${route.path} ${res.status} ${verdict}`);
    }
    expect(answers.filter((a) => !a.endsWith(' ok'))).toEqual([]);
    // Most answer with data: the upgrade is read, not merely survived.
    expect(answers.filter((a) => / 200 ok$/.test(a)).length).toBeGreaterThan(routes.length / 2);
    if (process.env.USHER_PRINT_ANSWERS) process.stdout.write(`${answers.join('\n')}\n`);
    await t.context.scheduler.stop(1000);
  }, 60_000);
});
