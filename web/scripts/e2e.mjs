// `nx run web:e2e`: the browser journeys. Needs Debian's Chromium (never `playwright install`),
// the production web build (Nx builds it first) and the API bundle, rebuilt here because it is
// cheap and a stale one would test old code.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(web, '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromium)) {
  // On CI (`.ci/run` sets CI=true and installs Chromium first) a missing browser is a failure:
  // a skip there would turn a broken provisioning step into a green run.
  if (process.env.CI === 'true' || process.env.CI === '1') {
    process.stderr.write(`web e2e: ${chromium} not found, and CI requires the browser journeys\n`);
    process.exit(1);
  }
  process.stdout.write(
    `\nweb e2e SKIPPED: ${chromium} not found. Install Debian's browser ` +
      '(apt-get install -y chromium) to run the browser journeys; .ci/run does this.\n\n',
  );
  process.exit(0);
}
if (!existsSync(join(web, 'dist/web/browser/index.html'))) {
  process.stderr.write('web e2e: no production build; run `npx nx run web:build` first\n');
  process.exit(1);
}

const run = (args, cwd) => {
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run(['build.mjs'], join(root, 'services/api'));
run(
  [
    '--experimental-vm-modules',
    join(root, 'node_modules/jest/bin/jest.js'),
    '--config',
    'e2e/jest.config.js',
    // Two journeys at a time: each has its own API process, embedded database, fakes and
    // browser, and most of a journey is waiting on them (in band: ~15 min on two cores).
    `--maxWorkers=${process.env.USHER_E2E_WORKERS ?? 2}`,
    ...process.argv.slice(2),
  ],
  web,
);
