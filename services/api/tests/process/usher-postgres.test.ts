// The `usher` command against PostgreSQL (issue 32; docs/operations.md "The usher command"): the
// API bundle run as an operator would (`node main.js <command>`, only the environment), beside a
// database with rows in every table. Only with TEST_DATABASE_URL; the embedded database's side
// (refusals while the API runs, backup and restore once stopped) is tests/process/data-lock.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen } from '@usher/testkit';
import { bundleApi, startApi, type Started } from '../support/api-process.js';
import { freshSecrets } from '../support/config.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/database.js';
import { fillEveryTable, tableDigests } from '../support/every-table.js';

describeWhen(Boolean(TEST_DATABASE_URL), 'needs TEST_DATABASE_URL', 'usher on PostgreSQL', () => {
  let bundle: string;
  let dir: string;
  let database: TestDatabase;
  let env: Record<string, string>;
  const usher = async (...args: string[]): Promise<Started & { code: number | null }> => {
    const started = startApi(bundle, env, args);
    return { ...started, code: await started.exited };
  };

  beforeAll(async () => {
    bundle = await bundleApi('usher-pg-');
    dir = mkdtempSync(join(tmpdir(), 'usher-cli-'));
    database = await createTestDatabase({ migrate: false });
    await fillEveryTable(database.handle.db, 100);
    // Closed early by the restore test (nobody else may be connected), and again by close().
    const end = database.handle.close;
    let ended: Promise<void> | undefined;
    database.handle.close = () => (ended ??= end());
    env = { ...freshSecrets(), DATABASE_URL: database.url!, LOG_LEVEL: 'warn' };
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    rmSync(bundle, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('should back up beside open connections, and restore only once nobody else is connected', async () => {
    const before = await tableDigests(database.handle.db);
    const file = join(dir, 'pg.usher-backup.gz');
    const backup = await usher('backup', '--out', file);
    expect([backup.code, backup.err()]).toEqual([0, '']);
    expect(backup.out()).toMatch(
      /^backup written: .* \(\d+ bytes, \d+ tables, \d+ rows, schema \w+\)\n$/,
    );

    // The test's own pool is still connected: the API would be, too.
    const refused = await usher('restore', file, '--yes');
    expect(refused.code).toBe(1);
    expect(refused.err()).toMatch(
      /^usher restore: \d+ other connection\(s\) to the database: stop the API and the Bot first/,
    );

    await database.handle.close();
    const restore = await usher('restore', file, '--yes');
    expect([restore.code, restore.err()]).toEqual([0, '']);
    expect(restore.out()).toMatch(/restored \d+ rows from /);
    const again = await database.connectAnother();
    expect(await tableDigests(again.db)).toEqual(before);
  }, 60_000);

  it('should check the environment, database, schema, settings and media server, and fail on an undecryptable setting', async () => {
    const check = await usher('check');
    const out = check.out();
    expect(out).toMatch(
      /^environment\s+ok\s+valid; database postgres:\/\/127\.0\.0\.1:5432\/usher_test_/m,
    );
    expect(out).toMatch(/^database\s+ok\s+reachable \(PostgreSQL \d+/m);
    expect(out).toMatch(/^schema\s+ok\s+up to date \(\d{4}_\w+\)$/m);
    // The fixture's MEDIA_SERVER_API_KEY was encrypted under another key: named, never shown.
    expect(out).toMatch(
      /^settings\s+fail\s+cannot decrypt MEDIA_SERVER_API_KEY \(key_changed\) with CONFIG_ENCRYPTION_KEY/m,
    );
    expect(out).toMatch(/^media server\s+warn\s+not configured/m);
    expect(check.code).toBe(1);
    expect(out).not.toContain(env.CONFIG_ENCRYPTION_KEY);
  }, 30_000);

  it('should name what is wrong in one line and exit non-zero', async () => {
    const unknown = await usher('frobnicate');
    expect([unknown.code, unknown.err()]).toEqual([
      2,
      'usher: unknown command "frobnicate" (try `usher help`)\n',
    ]);
    const noFile = await usher('restore');
    expect([noFile.code, noFile.err()]).toEqual([
      1,
      'usher restore: name the backup file: usher restore FILE [--yes]\n',
    ]);
    const badKeep = await usher('backup', '--keep', 'all');
    expect([badKeep.code, badKeep.err()]).toEqual([
      1,
      'usher backup: --keep needs a whole number of files from 1 to 999\n',
    ]);
    const unreachable = startApi(
      bundle,
      { ...env, DATABASE_URL: 'postgres://usher@127.0.0.1:1/usher' },
      ['migrate'],
    );
    expect(await unreachable.exited).toBe(1);
    expect(unreachable.err()).toMatch(/^usher migrate: the database does not answer: .+\n$/);
    const missing = startApi(bundle, { DATABASE_URL: database.url! }, ['backup']);
    expect(await missing.exited).toBe(1);
    expect(missing.err()).toMatch(/^config error: DATABASE_PASSWORD: rule "present" failed/m);
    expect(missing.err()).toMatch(
      /usher backup: the environment is not valid \(lines above; see \.env\.example\)\n$/,
    );
  }, 30_000);
});
