// The web console that `npm start` and `npm run demo` serve at / (00-architecture.md decision 10):
// built with `nx run web:build` when it is missing or older than what it is built from, skipped
// when the existing build is current. Only Node built-ins: both scripts may call it early.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** Where `nx run web:build` writes the browser bundle, relative to the repository root. */
export const WEB_DIST = 'web/dist/web/browser';

/** What the web build reads: its sources and configuration, and the shared contracts. */
export const WEB_INPUTS = [
  'web/src',
  'web/public',
  'web/angular.json',
  'web/package.json',
  'web/tsconfig.json',
  'web/tsconfig.app.json',
  'web/scripts/build.mjs',
  'tsconfig.base.json',
  'services/contracts/src',
  'services/contracts/package.json',
];

/** Tests never reach the bundle (Nx's `production` inputs leave them out too). */
const TEST_FILE = /\.(spec|test)\.[cm]?[jt]s$/;

/** Newest modification time (ms) of a file or of any non-test file below a folder; 0 when absent. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (TEST_FILE.test(entry.name)) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/**
 * `missing` (never built), `stale` (an input changed after the last build, e.g. after a pull) or
 * `fresh`. Compared by modification time against the build's index.html: cheap, and a checkout
 * or an edit always moves the input's time forward.
 */
export function webBuildState(root) {
  const index = join(root, WEB_DIST, 'index.html');
  if (!existsSync(index)) return 'missing';
  const builtAt = statSync(index).mtimeMs;
  const changed = WEB_INPUTS.some((input) => newestMtime(join(root, input)) > builtAt);
  return changed ? 'stale' : 'fresh';
}

/**
 * The folder to serve at /, building it first when needed; undefined when there is no web app
 * (a checkout without web/, or a build that produced nothing). An operator's own
 * `WEB_DIST_DIR` is used as it is, never built. A failed build exits with its status, as the
 * scripts' other build steps do.
 */
export function prepareWebApp({ root, env = process.env, write = (t) => process.stdout.write(t) }) {
  if (env.WEB_DIST_DIR) return env.WEB_DIST_DIR;
  if (!existsSync(join(root, 'web/package.json'))) return undefined;
  const state = webBuildState(root);
  if (state !== 'fresh') {
    write(
      state === 'missing'
        ? 'Building the web app (first start only)…\n'
        : 'Building the web app (its sources changed since the last build)…\n',
    );
    const result = spawnSync(
      process.execPath,
      [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run', 'web:build'],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
      },
    );
    if (result.status !== 0) process.exit(result.status ?? 1);
    // Nx may answer from its cache and leave matching files untouched: the build is current
    // either way, so its time says so and the next start does not ask Nx again.
    const index = join(root, WEB_DIST, 'index.html');
    if (existsSync(index)) utimesSync(index, new Date(), new Date());
  }
  const dist = join(root, WEB_DIST);
  return existsSync(join(dist, 'index.html')) ? dist : undefined;
}
