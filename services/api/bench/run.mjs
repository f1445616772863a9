#!/usr/bin/env node
// `npm run bench` (nx target `api:bench`): runs bench/api.bench.test.ts — the built API against
// a bare Hono + pg ceiling on a throwaway PostgreSQL database (BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres) — then prints the goals and, last, one
// `BENCH {json}` line holding every figure. Options (see bench/harness.ts):
//   npm run bench -- --duration=5 --rounds=3 --users=100000 --soak=60 --starts=3 --only=me,search
// BENCH_NO_BUILD=1 reuses dist/ as it is; BENCH_API_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p'
// passes node flags to the API processes (profiles are written when they stop);
// BENCH_CEILING_NODE_ARGS does the same for the ceiling.
// Not part of `npm test`: jest.config.js ignores *.bench.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const api = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(api, '.cache/bench.json');
const sharingOut = `${out}.sharing.json`;
rmSync(out, { force: true });
rmSync(sharingOut, { force: true });

const started = Date.now();
const result = spawnSync(
  process.execPath,
  [
    '--experimental-vm-modules',
    join(api, '../../node_modules/jest/bin/jest.js'),
    '--config',
    'jest.bench.config.js',
    '--runInBand',
  ],
  {
    cwd: api,
    stdio: 'inherit',
    env: { ...process.env, BENCH_ARGS: JSON.stringify(process.argv.slice(2)), BENCH_OUT: out },
  },
);

if (!existsSync(out) && !existsSync(sharingOut)) {
  process.stdout.write('\nno figures recorded\n');
  process.exit(result.status || 1);
}
const { figures, goals } = existsSync(out)
  ? JSON.parse(readFileSync(out, 'utf8'))
  : { figures: {}, goals: [] };
// bench/sharing.bench.test.ts writes its own file (the sharing_watch tick, issue 30).
if (existsSync(sharingOut)) {
  const sharing = JSON.parse(readFileSync(sharingOut, 'utf8'));
  Object.assign(figures, sharing.figures);
  goals.push(...sharing.goals);
}
process.stdout.write(`\n==> goals (issues 21 and 30)\n`);
for (const g of goals) {
  const mark = g.met === null ? 'n/a ' : g.met ? 'MET ' : 'MISS';
  const value = g.value === null ? '—' : String(g.value);
  const limit = `${g.kind === 'min' ? '≥' : '≤'} ${g.limit}`;
  process.stdout.write(`${mark}  ${g.name.padEnd(46)} ${value.padStart(8)}  (${limit})\n`);
}
const bench = {
  ...figures,
  goals: Object.fromEntries(goals.map((g) => [g.name, g.met])),
  seconds: Math.round((Date.now() - started) / 1000),
};
process.stdout.write(`\nBENCH ${JSON.stringify(bench)}\n`);
process.exit(result.status ?? 1);
