#!/usr/bin/env node
// `npm run test:reliability`: runs the reliability suites (one file at a time: they measure
// timing and load) and prints the figures they recorded, whether or not they all passed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const api = join(here, '..');
const figures = process.env.RELIABILITY_FIGURES ?? join(api, '.cache/reliability-figures.jsonl');
rmSync(figures, { force: true });

const jest = join(api, '../../node_modules/jest/bin/jest.js');
const result = spawnSync(
  process.execPath,
  [
    '--experimental-vm-modules',
    // No wasm-to-JS wrapper tier-up: a V8 bug aborts the process when PGlite instances come and
    // go in one process (docs/development.md, "PGlite and a V8 crash"); the test script sets it too.
    '--wasm-wrapper-tiering-budget=2147483647',
    jest,
    '--config',
    'jest.reliability.config.js',
    '--runInBand',
    ...process.argv.slice(2),
  ],
  { cwd: api, stdio: 'inherit', env: { ...process.env, RELIABILITY_FIGURES: figures } },
);

process.stdout.write('\n==> reliability figures\n');
if (existsSync(figures)) {
  for (const line of readFileSync(figures, 'utf8').split('\n').filter(Boolean)) {
    const { section, figures: values } = JSON.parse(line);
    process.stdout.write(`\n${section}\n`);
    for (const [name, value] of Object.entries(values)) {
      process.stdout.write(
        `  ${name}: ${typeof value === 'object' ? JSON.stringify(value) : value}\n`,
      );
    }
  }
} else {
  process.stdout.write('(no figures recorded)\n');
}
process.exit(result.status ?? 1);
