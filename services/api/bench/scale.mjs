#!/usr/bin/env node
// `npm run bench:scale` (root) → this file: runs bench/scale.bench.test.ts (the scale fixture at
// 10 000 and 100 000 members on PostgreSQL and PGlite, issue 33), then prints the growth ratios,
// the goals and, last, one `SCALE {json}` line. Options (bench/scale-harness.ts):
//   npm run bench:scale -- --sizes=10000,100000 --engines=pg,pglite --pglite-max=10000 --samples=20
// BENCH_NO_BUILD=1 reuses dist/. Not part of `npm test` nor of `npm run bench`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const api = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(api, '.cache/scale.json');
rmSync(out, { force: true });
const result = spawnSync(
  process.execPath,
  [
    '--experimental-vm-modules',
    join(api, '../../node_modules/jest/bin/jest.js'),
    '--config',
    'jest.scale.config.js',
    '--runInBand',
    '--forceExit',
  ],
  {
    cwd: api,
    stdio: 'inherit',
    env: { ...process.env, BENCH_ARGS: JSON.stringify(process.argv.slice(2)), BENCH_OUT: out },
  },
);
if (!existsSync(out)) {
  // `--explain` prints plans, not figures.
  if (process.argv.includes('--explain') && result.status === 0) process.exit(0);
  process.stdout.write('\nno figures recorded\n');
  process.exit(result.status || 1);
}
const figures = JSON.parse(readFileSync(out, 'utf8'));
for (const [span, ratios] of Object.entries(figures.growth)) {
  process.stdout.write(`\n==> growth of p95 / duration, ${span}\n`);
  for (const [name, r] of Object.entries(ratios)) {
    process.stdout.write(`${String(r).padStart(7)} ×  ${name}\n`);
  }
}
process.stdout.write(`\n==> goals (issue 33)\n`);
for (const g of figures.goals) {
  const mark = g.met === null ? 'n/a ' : g.met ? 'MET ' : 'MISS';
  process.stdout.write(
    `${mark}  ${g.name.padEnd(64)} ${String(g.figure ?? '—').padStart(8)}  (≤ ${g.limit})\n`,
  );
}
process.stdout.write(`\nSCALE ${JSON.stringify(figures)}\n`);
process.exit(result.status ?? 1);
