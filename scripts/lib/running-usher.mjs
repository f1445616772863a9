// Whether an Usher already runs on this checkout's embedded database, asked by `npm start` before
// it rebuilds anything: a second start would otherwise replace the running API's bundle (and maybe
// its web app) only to be refused by the API a moment later. The API's own lock check
// (services/api/src/db/data-lock.ts) stays the authority; this reads the same `usher.lock` and
// answers only for an owner that is certainly alive on this machine, else lets the API decide.
// Only Node built-ins: `npm start` calls it before dependencies may be installed.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

/** The embedded data folder `npm start` would use, or undefined when DATABASE_URL is set. */
export function embeddedDataDir(root, shellEnv, envFileText) {
  const fileEnv = envFileText ? parseEnv(envFileText) : {};
  // As `--env-file` does: the shell wins over .env.
  const pick = (name) => (shellEnv[name] !== undefined ? shellEnv[name] : fileEnv[name]);
  if (pick('DATABASE_URL')?.trim()) return undefined;
  return resolve(root, pick('PGLITE_DATA_DIR')?.trim() || './data/db');
}

function processStart(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    // No /proc (not Linux): the pid alone decides, as in the API's check.
    return undefined;
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The lock's owner when it is a live process on this machine, else undefined. */
export function runningOwner(dataDir) {
  let owner;
  try {
    owner = JSON.parse(readFileSync(resolve(dataDir, 'usher.lock'), 'utf8'));
  } catch {
    // No lock (nothing runs) or an unreadable one: the API's check decides.
    return undefined;
  }
  if (owner?.host !== hostname() || typeof owner.pid !== 'number') return undefined;
  if (owner.pid === process.pid || !isRunning(owner.pid)) return undefined;
  const start = processStart(owner.pid);
  if (owner.processStart && start && owner.processStart !== start) return undefined;
  return owner;
}
