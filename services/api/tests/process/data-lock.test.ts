// One owner for the embedded database (issue 32), with real processes: a second API, the reset
// command and a second start on a busy port are refused before they touch the folder, and
// `reset-admin-password` as a source install runs it (scripts/lib/api-process.mjs: the root .env,
// the checkout as working directory) works once the API is stopped. One embedded database for the
// suite: initdb is the slow part.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loginResponseSchema } from '@usher/contracts';
import {
  bundleApi,
  freePort,
  startProcess,
  tempLines,
  temporaryPassword,
  waitForHealth,
  type Started,
} from '../support/api-process.js';
import { freshSecrets } from '../support/config.js';

interface ApiProcessLib {
  apiProcess(options: { root: string; main?: string; args?: string[] }): {
    command: string;
    args: string[];
    cwd: string;
  };
}

const ROOT = join(import.meta.dirname, '../../../..');
let bundle: string;
/** A source install: `.env` and `data/db` as `npm start` leaves them. */
let install: string;
let dataDir: string;
let lockPath: string;
let port: number;
let lib: ApiProcessLib;

/** The API (or one of its commands) as the scripts start it; `shell` overrides the .env. */
function run(args: string[] = [], shell: Record<string, string> = {}): Started {
  const api = lib.apiProcess({ root: install, main: join(bundle, 'main.js'), args });
  return startProcess(api.command, api.args, { cwd: api.cwd, env: shell });
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  expect(await started.exited).toBe(0);
}

const lockOwner = () => (JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number }).pid;

beforeAll(async () => {
  lib = (await import(
    pathToFileURL(join(ROOT, 'scripts/lib/api-process.mjs')).href
  )) as ApiProcessLib;
  bundle = await bundleApi('lock-test-');
  install = mkdtempSync(join(bundle, 'install-'));
  dataDir = join(install, 'data/db');
  lockPath = join(dataDir, 'usher.lock');
  port = await freePort();
  const env = { ...freshSecrets(), PORT: String(port), LOG_LEVEL: 'warn' };
  writeFileSync(
    join(install, '.env'),
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n',
  );
  // The first start creates the database and the admin.
  const first = run();
  expect(await waitForHealth(port, first)).toBe(200);
  await stop(first);
}, 120_000); // initdb and a first start: ~20 s alone, more under npm test's load
afterAll(() => rmSync(bundle, { recursive: true, force: true }));

describe('the embedded database has one owner', () => {
  it('should refuse a second API, the reset command and a busy port while the API runs', async () => {
    const api = run();
    try {
      expect(await waitForHealth(port, api)).toBe(200);
      const pid = api.child.pid!;
      expect(lockOwner()).toBe(pid);
      const stopFirst = `stop it first (Ctrl-C where it runs, or \`kill ${pid}\`)`;

      // A second API on the same folder, on a free port: refused before it opens the folder.
      const otherPort = await freePort();
      const second = run([], { PORT: String(otherPort) });
      expect(await second.exited).toBe(1);
      expect(second.err()).toMatch(
        new RegExp(
          `^Usher API not started: the embedded database in ${dataDir} is in use by the Usher ` +
            `API \\(pid ${pid}, since [0-9T:.-]+Z\\)\\. Only one process may open it: ` +
            `${stopFirst.replace(/[()]/g, '\\$&')}, or set PGLITE_DATA_DIR to another folder\\.\\n$`,
        ),
      );
      expect(second.out()).not.toContain('embedded PGlite');
      await expect(fetch(`http://127.0.0.1:${otherPort}/health`)).rejects.toThrow();

      // The reset would write into a copy the running API never reads: refused, nothing printed.
      const reset = run(['reset-admin-password']);
      expect(await reset.exited).toBe(1);
      expect(reset.err()).toBe(
        `usher reset-admin-password: the embedded database in ${dataDir} is in use by ` +
          `${/by (the Usher API \(pid \d+, since [^)]+\))/.exec(second.err())![1]}. A reset now ` +
          `would be lost: ${stopFirst}, then run the command again.\n`,
      );
      expect(tempLines(reset.out())).toEqual([]);

      // Another folder on the running API's port: one line naming PORT, no database created.
      const otherDir = join(install, 'other-db');
      const busy = run([], { PGLITE_DATA_DIR: otherDir });
      expect(await busy.exited).toBe(1);
      expect(busy.err()).toBe(
        `Usher API not started: Port ${port} is already in use (PORT=${port}): ` +
          'stop the other process or set PORT\n',
      );
      expect(existsSync(join(otherDir, 'PG_VERSION'))).toBe(false);
      expect(existsSync(join(otherDir, 'usher.lock'))).toBe(false); // released on exit

      expect(lockOwner()).toBe(pid); // nobody took it from the running API
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      await stop(api);
      expect(existsSync(lockPath)).toBe(false);
    } finally {
      if (api.child.exitCode === null) api.child.kill('SIGKILL');
    }
  }, 90_000);

  it('should reset through the .env once the API is stopped; the password signs in after a start', async () => {
    const reset = run(['reset-admin-password']);
    expect(await reset.exited).toBe(0);
    const password = temporaryPassword(reset.out());
    expect(existsSync(lockPath)).toBe(false);

    const api = run();
    try {
      expect(await waitForHealth(port, api)).toBe(200);
      const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(login.status).toBe(200);
      expect(loginResponseSchema.parse(await login.json()).user.mustChangePassword).toBe(true);

      // Killed without a chance to clean up: its lock stays, and the next process takes it over.
      api.child.kill('SIGKILL');
      await api.exited;
      expect(lockOwner()).toBe(api.child.pid);
      const again = run(['reset-admin-password']);
      expect(await again.exited).toBe(0);
      expect(again.out()).toContain(`"reason":"pid ${api.child.pid} is not running"`);
      expect(again.out()).toContain('took over the embedded database lock');
      expect(temporaryPassword(again.out())).not.toBe(password);
      expect(existsSync(lockPath)).toBe(false);
    } finally {
      if (api.child.exitCode === null) api.child.kill('SIGKILL');
    }
  }, 90_000);

  it('should back up, check and restore once the API is stopped, and refuse while it runs', async () => {
    const file = join(install, 'kept.usher-backup.gz');
    const backup = run(['backup', '--out', file]);
    expect(await backup.exited).toBe(0);
    expect(backup.out()).toMatch(
      new RegExp(
        `^backup written: ${file} \\(\\d+ bytes, \\d+ tables, \\d+ rows, schema \\w+\\)\\n$`,
      ),
    );
    expect(existsSync(lockPath)).toBe(false);

    const api = run();
    try {
      expect(await waitForHealth(port, api)).toBe(200);
      const pid = api.child.pid!;
      const inUse = `the embedded database in ${dataDir} is in use by the Usher API (pid ${pid}, since `;
      const stopFirst = `stop it first (Ctrl-C where it runs, or \`kill ${pid}\`), then run the command again.\n`;
      for (const args of [['backup'], ['restore', file, '--yes'], ['migrate'], ['check']]) {
        const refused = run(args);
        expect(await refused.exited).toBe(1);
        const err = refused.err();
        expect(
          err.startsWith(`usher ${args[0]}: ${inUse}`) ||
            err.includes(`database      fail  ${inUse}`) ||
            refused.out().includes(`database      fail  ${inUse}`),
        ).toBe(true);
        expect(refused.out() + err).toContain(stopFirst.trim());
      }
      const version = run(['version']);
      expect(await version.exited).toBe(0);
      expect(version.out()).toMatch(/^usher \S+ \(schema \d{4}_\w+\)\n$/);
      expect(lockOwner()).toBe(pid);
      await stop(api);
    } finally {
      if (api.child.exitCode === null) api.child.kill('SIGKILL');
    }

    const unconfirmed = run(['restore', file]);
    expect(await unconfirmed.exited).toBe(1);
    expect(unconfirmed.err()).toBe(
      'usher restore: this replaces every row of the database with the file; run it again with --yes\n',
    );
    const restore = run(['restore', file, '--yes']);
    expect(await restore.exited).toBe(0);
    expect(restore.out()).toMatch(
      /^.*schema \w+, \d+ tables, \d+ rows, made .*\nrestored \d+ rows from /,
    );
    const check = run(['check']);
    expect(await check.exited).toBe(0);
    expect(check.out()).toMatch(/^environment\s+ok\s+valid; database embedded/m);
    expect(check.out()).toMatch(/^database\s+ok\s+reachable \(PostgreSQL/m);
    expect(check.out()).toMatch(/^schema\s+ok\s+up to date/m);
    expect(check.out()).toMatch(/^settings\s+ok/m);
    expect(check.out()).toMatch(/^media server\s+warn\s+not configured/m);
    // A folder without a database: said, and not created by the command.
    const none = join(install, 'no-db');
    for (const command of ['check', 'backup']) {
      const empty = run([command], { PGLITE_DATA_DIR: none });
      expect(await empty.exited).toBe(1);
      expect(empty.out() + empty.err()).toContain(
        `there is no embedded database in ${none} yet (\`npm start\` creates it; set DATABASE_URL for PostgreSQL)`,
      );
    }
    expect(existsSync(none)).toBe(false);
    const missing = run(['restore', join(install, 'nope.usher-backup.gz'), '--yes']);
    expect(await missing.exited).toBe(1);
    expect(missing.err()).toBe('usher restore: the file does not exist\n');
    expect(existsSync(lockPath)).toBe(false);
  }, 120_000);
});
