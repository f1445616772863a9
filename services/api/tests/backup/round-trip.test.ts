import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { createBackup, restoreBackup } from '../../src/backup/backup.js';
import { BackupFileError, verifyBackup } from '../../src/backup/format.js';
import { openPglite, type DatabaseHandle } from '../../src/db/client.js';
import { knownMigrations } from '../../src/db/migrate.js';
import { queryRows } from '../../src/db/sql.js';
import {
  createTestDatabase,
  ENGINE,
  MIGRATIONS,
  TEST_DATABASE_URL,
  type TestDatabase,
} from '../support/database.js';
import { fillEveryTable, tableDigests } from '../support/every-table.js';

const MEMBERS = 10_000;
const options = { migrationsFolder: MIGRATIONS, appVersion: '9.9.9-test' };

/** Rewrites a backup's uncompressed lines; `rehash` recomputes the checksum as a forger would. */
function rewrite(from: string, to: string, edit: (lines: string[]) => void, rehash: boolean) {
  const lines = gunzipSync(readFileSync(from)).toString('utf8').split('\n').filter(Boolean);
  const trailer = JSON.parse(lines.pop()!) as { end: true; rows: number; sha256: string };
  edit(lines);
  const body = lines.map((l) => `${l}\n`).join('');
  if (rehash) trailer.sha256 = createHash('sha256').update(body).digest('hex');
  writeFileSync(to, gzipSync(body + JSON.stringify(trailer) + '\n'));
}

async function wipe(handle: DatabaseHandle): Promise<void> {
  const tables = await queryRows<{ name: string }>(
    handle.db,
    sql`select tablename as name from pg_tables where schemaname = 'public'`,
  );
  for (const { name } of tables)
    await handle.db.execute(sql`drop table ${sql.identifier(name)} cascade`);
  await handle.db.execute(sql`drop schema drizzle cascade`);
}

describe(`backup and restore (${ENGINE})`, () => {
  let dir: string;
  let source: TestDatabase;
  let digests: Record<string, string>;
  let file: string;
  const timings: Record<string, number> = {};

  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      timings[name] = Math.round(performance.now() - start);
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'usher-backup-'));
    source = await createTestDatabase({ migrate: false });
    await timed('fill', () => fillEveryTable(source.handle.db, MEMBERS));
    digests = await tableDigests(source.handle.db);
    file = join(dir, 'full.usher-backup.gz');
    const made = await timed('backup', () =>
      createBackup({ db: source.handle.db, kind: source.handle.kind }, file, options),
    );
    timings.fileBytes = made.bytes;
    timings.rows = made.rows;
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    rmSync(dir, { recursive: true, force: true });
    // Measured figures for docs/operations.md (backup of 10 000 members).
    process.stdout.write(
      `backup round trip (ms, bytes, rows; ${ENGINE}): ${JSON.stringify(timings)}\n`,
    );
  });

  it('should have rows in every table of the schema', () => {
    const empty = Object.entries(digests).filter(([, d]) => d.startsWith('0:'));
    expect(empty).toEqual([]);
    expect(Number(digests.users!.split(':')[0])).toBe(MEMBERS + 1);
  });

  it('should write a header naming the schema, the app version and every table', async () => {
    const { header, rows } = await verifyBackup(file);
    const known = knownMigrations(MIGRATIONS);
    expect(header).toMatchObject({
      format: 'usher-backup',
      formatVersion: 1,
      appVersion: '9.9.9-test',
      engine: source.handle.kind,
      schema: { latest: known.at(-1)!.tag, migrations: known },
    });
    expect(Object.fromEntries(header.tables.map((t) => [t.name, t.rows]))).toEqual(
      Object.fromEntries(Object.entries(digests).map(([t, d]) => [t, Number(d.split(':')[0])])),
    );
    expect(rows).toBe(header.tables.reduce((n, t) => n + t.rows, 0));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('should restore every row of every table after the database was wiped', async () => {
    await wipe(source.handle);
    const result = await timed('restore', () =>
      restoreBackup(source.handle.db, file, { migrationsFolder: MIGRATIONS }),
    );
    expect(result.migrated).toEqual([]);
    expect(await tableDigests(source.handle.db)).toEqual(digests);
  }, 60_000);

  it('should replace what a database holds with the file, all of it', async () => {
    const other = await createTestDatabase();
    try {
      await other.handle.db.execute(
        sql`insert into settings (key, value, is_encrypted, updated_at) values ('SITE_NAME', 'other', false, now())`,
      );
      await restoreBackup(other.handle.db, file, { migrationsFolder: MIGRATIONS });
      expect(await tableDigests(other.handle.db)).toEqual(digests);
    } finally {
      await other.close();
    }
  }, 60_000);

  (TEST_DATABASE_URL ? it : it.skip)(
    'should restore a backup of the embedded PGlite into PostgreSQL',
    async () => {
      const embedded = await openPglite();
      const target = await createTestDatabase();
      try {
        await fillEveryTable(embedded.db, MEMBERS);
        const expected = await tableDigests(embedded.db);
        const moved = join(dir, 'pglite.usher-backup.gz');
        await timed('pgliteBackup', () =>
          createBackup({ db: embedded.db, kind: 'pglite' }, moved, options),
        );
        expect((await verifyBackup(moved)).header.engine).toBe('pglite');
        await timed('restoreIntoPostgres', () =>
          restoreBackup(target.handle.db, moved, { migrationsFolder: MIGRATIONS }),
        );
        expect(target.handle.kind).toBe('postgres');
        expect(await tableDigests(target.handle.db)).toEqual(expected);
      } finally {
        await embedded.close();
        await target.close();
      }
    },
    120_000,
  );

  describe('a file that must be refused', () => {
    // What the source holds before each refusal (nothing may change it): read once.
    let before: Record<string, string>;
    beforeAll(async () => {
      before = await tableDigests(source.handle.db);
    });
    const refused = async (path: string, problem: unknown, message: RegExp) => {
      const err = await restoreBackup(source.handle.db, path, {
        migrationsFolder: MIGRATIONS,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BackupFileError);
      expect(err).toMatchObject({ problem, message: expect.stringMatching(message) });
      // Nothing changed: the same rows, and the schema still there.
      expect(await tableDigests(source.handle.db)).toEqual(before);
    };

    it('should refuse a truncated file and change nothing', async () => {
      const cut = join(dir, 'cut.usher-backup.gz');
      writeFileSync(cut, readFileSync(file));
      truncateSync(cut, Math.floor(statSync(file).size * 0.6));
      await refused(cut, 'truncated', /cut short/);
    });

    it('should refuse a file without its end marker and change nothing', async () => {
      const cut = join(dir, 'no-end.usher-backup.gz');
      const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
      writeFileSync(cut, gzipSync(lines.slice(0, -2).join('\n') + '\n'));
      await refused(cut, 'truncated', /end marker/);
    });

    it('should refuse a file whose rows were edited and change nothing', async () => {
      const tampered = join(dir, 'tampered.usher-backup.gz');
      rewrite(
        file,
        tampered,
        (lines) => {
          const i = lines.findIndex((l) => l.includes('"role": "admin"'));
          lines[i] = lines[i]!.replace('"role": "admin"', '"role": "user"');
        },
        false,
      );
      await refused(tampered, 'checksum', /checksum does not match/);
    });

    it('should refuse a file with damaged compressed bytes and change nothing', async () => {
      const damaged = join(dir, 'damaged.usher-backup.gz');
      const bytes = readFileSync(file);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      writeFileSync(damaged, bytes);
      await refused(damaged, expect.stringMatching(/^(damaged|checksum)$/), /damaged|changed/);
    });

    it('should roll everything back when a row breaks a rule during the load', async () => {
      // A consistent file (checksum recomputed) whose redemption names a user that is not there:
      // the load gets far (tables dropped, rows inserted) before the foreign key refuses it.
      const orphan = join(dir, 'orphan.usher-backup.gz');
      rewrite(
        file,
        orphan,
        (lines) => {
          const start = lines.indexOf('{"table":"redemptions"}');
          lines[start + 1] = lines[start + 1]!.replace(
            /"user_id": "[0-9a-f-]{36}"/,
            '"user_id": "00000000-0000-7000-8000-00000000dead"',
          );
        },
        true,
      );
      const err = await restoreBackup(source.handle.db, orphan, {
        migrationsFolder: MIGRATIONS,
      }).catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(Error);
      expect(String((err as { cause?: unknown }).cause ?? err)).toMatch(/redemptions|foreign key/);
      expect(await tableDigests(source.handle.db)).toEqual(before);
    });

    it('should refuse a file from a newer schema and change nothing', async () => {
      const newer = join(dir, 'newer.usher-backup.gz');
      rewrite(
        file,
        newer,
        (lines) => {
          const header = JSON.parse(lines[0]!) as {
            schema: { latest: string; migrations: object[] };
          };
          header.schema.migrations.push({ tag: '9999_future', when: 9_999_999_999_999, hash: 'x' });
          header.schema.latest = '9999_future';
          lines[0] = JSON.stringify(header);
        },
        true,
      );
      await refused(newer, 'newer_schema', /newer Usher \(schema 9999_future.*upgrade Usher first/);
    });
  });
});
