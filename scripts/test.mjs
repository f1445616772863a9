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
//   npm test                       every project (the API on embedded PGlite)
//   TEST_DATABASE_URL=… npm test   the API's suites on that PostgreSQL server (what CI does)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args, env = process.env) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

const installed = run(process.execPath, [join(root, 'scripts/ensure-deps.mjs')]);
if (installed !== 0) process.exit(installed);

const require = createRequire(import.meta.url);
const nxPackage = require.resolve('nx/package.json', { paths: [root] });
const nx = join(dirname(nxPackage), JSON.parse(readFileSync(nxPackage, 'utf8')).bin.nx);

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
    ...process.argv.slice(2),
  ],
  { ...process.env, USHER_TEST_TIMINGS_DIR: timings },
);

const { formatReport } = require('./test/timings-reporter.cjs');
const projects = readdirSync(timings)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(timings, f), 'utf8')));
rmSync(timings, { recursive: true, force: true });
if (projects.length > 0) {
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`\n${formatReport(projects).join('\n')}\nWall time: ${minutes} min\n`);
}
process.exit(status);
