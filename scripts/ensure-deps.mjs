// Installs the workspace's dependencies on a fresh clone (so `npm start` / `npm test` are the
// only commands a newcomer needs). Uses only Node built-ins: it runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(
    `Usher needs Node.js 24 or newer (found ${process.version}). ` +
      'Install it with nvm (`nvm install`, .nvmrc says 24) or from https://nodejs.org.\n',
  );
  process.exit(1);
}

/**
 * Whether node_modules matches package-lock.json: npm records what it installed in
 * node_modules/.package-lock.json; any locked package missing there or at another version means
 * the install is missing or stale (e.g. after a pull that changed dependencies).
 */
function installIsCurrent() {
  const marker = join(root, 'node_modules/.package-lock.json');
  if (!existsSync(marker)) return false;
  const wanted = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const have = JSON.parse(readFileSync(marker, 'utf8')).packages ?? {};
  return Object.entries(wanted).every(
    ([path, meta]) =>
      path === '' ||
      !path.startsWith('node_modules/') ||
      meta.optional ||
      have[path]?.version === meta.version,
  );
}
const stale = !installIsCurrent();
if (stale) {
  process.stdout.write('Installing dependencies…\n');
  // `npm install` rather than `npm ci`: see .ci/run (platform binaries missing from the lock).
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
