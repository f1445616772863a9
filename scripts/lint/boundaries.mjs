#!/usr/bin/env node
// Import boundaries (.dependency-cruiser.cjs) for the given folders or files, from the
// repository root so every rule reads paths the same way whichever project asks. Each project's
// `lint` script runs it on its own folders, so `npm run lint` and CI fail on a broken rule:
//
//   node scripts/lint/boundaries.mjs services/api        (from anywhere in the repository)
//
// Exit status: 0 clean, 1 a rule is broken (each violation printed with its rule's name; the
// rule's comment in .dependency-cruiser.cjs says why it exists and how to fix it), 2 misuse.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const targets = process.argv.slice(2);
if (targets.length === 0) {
  console.error('usage: boundaries.mjs <folder or file>... (paths from the repository root)');
  process.exit(2);
}
// Paths are taken from the repository root, or from the caller's folder when they exist there
// (a project's lint script passes its own folders).
const paths = targets.map((t) => {
  const fromCwd = resolve(process.cwd(), t);
  return relative(ROOT, existsSync(fromCwd) ? fromCwd : resolve(ROOT, t)) || '.';
});
const missing = paths.filter((p) => !existsSync(join(ROOT, p)));
if (missing.length > 0) {
  console.error(`boundaries: no such folder or file: ${missing.join(', ')}`);
  process.exit(2);
}
const run = spawnSync(
  process.execPath,
  [
    join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'err',
    ...paths,
  ],
  { cwd: ROOT, stdio: 'inherit' },
);
process.exit(run.status ?? 1);
