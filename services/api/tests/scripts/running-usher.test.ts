/**
 * `npm start` and `npm run usher` (and its alias `npm run reset-admin-password`) stop before they install or rebuild anything
 * when an Usher already runs on the checkout's embedded database (scripts/lib/running-usher.mjs).
 * They answer only for an owner that is certainly alive; anything else is left to the API's lock.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemFacts } from '../../src/db/data-lock.js';

const ROOT = join(import.meta.dirname, '../../../..');

interface RunningUsher {
  embeddedDataDir(
    root: string,
    shellEnv: Record<string, string | undefined>,
    envFileText: string,
  ): string | undefined;
  runningOwner(dataDir: string): { pid: number } | undefined;
}

let lib: RunningUsher;
let dir: string;
beforeAll(async () => {
  lib = (await import(
    pathToFileURL(join(ROOT, 'scripts/lib/running-usher.mjs')).href
  )) as RunningUsher;
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usher-running-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lock = (owner: object) => writeFileSync(join(dir, 'usher.lock'), JSON.stringify(owner));

test('should find the data folder as the API would: shell over .env, none with DATABASE_URL', () => {
  expect(lib.embeddedDataDir('/srv/usher', {}, 'JWT_SECRET=x\n')).toBe('/srv/usher/data/db');
  expect(lib.embeddedDataDir('/srv/usher', {}, 'PGLITE_DATA_DIR=/var/lib/usher\n')).toBe(
    '/var/lib/usher',
  );
  expect(lib.embeddedDataDir('/srv/usher', { PGLITE_DATA_DIR: 'db2' }, 'PGLITE_DATA_DIR=x\n')).toBe(
    '/srv/usher/db2',
  );
  expect(
    lib.embeddedDataDir('/srv/usher', {}, 'DATABASE_URL=postgres://db/usher\n'),
  ).toBeUndefined();
});

test('should name a live owner on this machine', () => {
  const pid = process.ppid;
  lock({ pid, host: hostname(), startedAt: 'T', processStart: systemFacts.processStart(pid) });
  expect(lib.runningOwner(dir)).toMatchObject({ pid });
});

test('should leave every other case to the API: no lock, dead pid, reused pid, another host', () => {
  expect(lib.runningOwner(dir)).toBeUndefined();
  const gone = spawnSync(process.execPath, ['-e', '']).pid!;
  lock({ pid: gone, host: hostname() });
  expect(lib.runningOwner(dir)).toBeUndefined();
  lock({ pid: process.ppid, host: 'elsewhere' });
  expect(lib.runningOwner(dir)).toBeUndefined();
  const start = systemFacts.processStart(process.ppid);
  if (start) {
    lock({ pid: process.ppid, host: hostname(), processStart: `${start}1` });
    expect(lib.runningOwner(dir)).toBeUndefined();
  }
  writeFileSync(join(dir, 'usher.lock'), 'garbage');
  expect(lib.runningOwner(dir)).toBeUndefined();
});

test('should be asked by npm start before it installs or builds, and by the usher script', () => {
  const start = readFileSync(join(ROOT, 'scripts/start.mjs'), 'utf8');
  expect(start.indexOf('runningOwner(dataDir)')).toBeGreaterThan(0);
  expect(start.indexOf('runningOwner(dataDir)')).toBeLessThan(start.indexOf('ensure-deps.mjs'));
  const reset = readFileSync(join(ROOT, 'scripts/usher.mjs'), 'utf8');
  expect(reset.indexOf('runningOwner(dataDir)')).toBeGreaterThan(0);
  expect(reset.indexOf('runningOwner(dataDir)')).toBeLessThan(reset.indexOf('ensure-deps.mjs'));
});
