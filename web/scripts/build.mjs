// `nx run web:build`: the production bundle in dist/web/browser, stamped with the version and
// commit (footer, i18n cache key), the landing pages' preload lists written into boot.js, then
// the bundle-size report with its gzip budget.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(web, 'package.json'), 'utf8'));

function commit() {
  try {
    return execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], {
      cwd: web,
      encoding: 'utf8',
    }).trim();
  } catch {
    // Not a git checkout (a source tarball, a Docker context without .git): say so.
    return 'unknown';
  }
}

// Only the Material Symbols the app names ship, as SVG (scripts/icons.mjs, issue 14).
const icons = spawnSync(process.execPath, [join(web, 'scripts/icons.mjs')], {
  cwd: web,
  stdio: 'inherit',
});
if (icons.status !== 0) process.exit(icons.status ?? 1);

const build = JSON.stringify({ version: process.env.USHER_VERSION || version, commit: commit() });
const ng = join(web, '../node_modules/@angular/cli/bin/ng.js');
const result = spawnSync(
  process.execPath,
  [ng, 'build', '--configuration=production', `--define=USHER_BUILD=${build}`],
  { cwd: web, stdio: 'inherit', env: { ...process.env, NG_CLI_ANALYTICS: 'false' } },
);
if (result.status !== 0) process.exit(result.status ?? 1);

// The landing pages' code lists go into boot.js (scripts/route-preload.mjs), then the budgets.
for (const script of ['scripts/route-preload.mjs', 'scripts/bundle-size.mjs']) {
  const step = spawnSync(process.execPath, [join(web, script)], {
    cwd: web,
    stdio: 'inherit',
    env: { ...process.env, USHER_BUILD: build },
  });
  if (step.status !== 0) process.exit(step.status ?? 1);
  // route-preload rewrote boot.js after Angular hashed it into ngsw.json: hash again, or the
  // service worker would refuse the changed file and never install (docs/web-performance.md).
  if (script === 'scripts/route-preload.mjs') {
    const ngsw = spawnSync(
      process.execPath,
      [
        join(web, '../node_modules/@angular/service-worker/ngsw-config.js'),
        'dist/web/browser',
        // ngsw-config.json plus the offline page's code (route-preload.mjs offlineConfig).
        'dist/web/ngsw-config.generated.json',
        '/',
      ],
      { cwd: web, stdio: 'inherit' },
    );
    if (ngsw.status !== 0) process.exit(ngsw.status ?? 1);
  }
}
