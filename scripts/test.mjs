#!/usr/bin/env node
// `npm test`: installs what is missing, runs every project's tests through nx with both cores
// busy, then prints one report over all of them — the slowest suites with their seconds and the
// number of tests run (scripts/test/timings-reporter.cjs collects them from jest's own results).
//
// Two projects at a time, each on two jest workers or more (jest.preset.js): the suites spend
// much of their time waiting on child processes, sockets and the database, so on two cores the
// small projects (web, deploy, testkit, bot, contracts) run beside the API's suites instead of
// after them. Three at a time overloaded two cores: suites that start processes on PGlite ran
// past their timeouts (docs/development.md, "Test time").
//
// The API's suites (and the Bot's polling lease) run on PostgreSQL where one is usable — the
// server in TEST_DATABASE_URL, else the machine's own at 127.0.0.1:5432 — and then the suites
// whose outcome depends on the engine run once more on embedded PGlite (`test:pglite`), as CI
// does; without a usable server every suite runs on PGlite (scripts/test/engine.mjs):
//
//   npm test                               PostgreSQL if the machine has one, else PGlite
//   TEST_DATABASE_URL=… npm test           that PostgreSQL server
//   USHER_TEST_ENGINE=pglite npm test      embedded PGlite for every suite
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseEngine, includesApi } from './test/engine.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args, env = process.env) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

const installed = run(process.execPath, [join(root, 'scripts/ensure-deps.mjs')]);
if (installed !== 0) process.exit(installed);

const require = createRequire(import.meta.url);
const nxPackage = require.resolve('nx/package.json', { paths: [root] });
const nx = join(dirname(nxPackage), JSON.parse(readFileSync(nxPackage, 'utf8')).bin.nx);

let choice;
try {
  choice = await chooseEngine(process.env);
} catch (error) {
  process.stderr.write(`npm test: ${error.message}\n`);
  process.exit(2);
}
process.stdout.write(
  `API suites on ${choice.engine === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'}: ${choice.why}\n`,
);
const env = { ...process.env };
if (choice.engine === 'postgres') env.TEST_DATABASE_URL = choice.url;
else delete env.TEST_DATABASE_URL;

const args = process.argv.slice(2);
const timings = mkdtempSync(join(tmpdir(), 'usher-test-timings-'));
const started = Date.now();
const status = run(
  process.execPath,
  [
    nx,
    'run-many',
    '-t',
    'test',
    `--parallel=${process.env.USHER_TEST_PARALLEL ?? 2}`,
    '--outputStyle=stream',
    ...args,
  ],
  { ...env, USHER_TEST_TIMINGS_DIR: timings },
);

// The engine-specific suites again on PGlite (services/api/jest.pglite.config.js), when the pass
// above ran the API on PostgreSQL; skipped where `--projects` leaves the API out.
let pglite = 0;
if (choice.engine === 'postgres' && includesApi(args)) {
  process.stdout.write('\nThe engine-specific API suites on embedded PGlite (test:pglite)\n');
  const embedded = { ...env, USHER_TEST_TIMINGS_DIR: timings };
  delete embedded.TEST_DATABASE_URL;
  pglite = run('npm', ['run', 'test:pglite', '-w', '@usher/api'], embedded);
}

const { formatReport } = require('./test/timings-reporter.cjs');
const projects = readdirSync(timings)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(timings, f), 'utf8')));
rmSync(timings, { recursive: true, force: true });
if (projects.length > 0) {
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`\n${formatReport(projects).join('\n')}\nWall time: ${minutes} min\n`);
}
process.exit(status || pglite);
