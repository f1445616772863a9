// Prints the JavaScript a first visit to each public route downloads (gzip level 6, like a
// default `gzip`), from the esbuild metafile of the production build, and fails the build when
// the login route passes its budget (issue 3: under 250 KB gzipped).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist/web');
const browser = join(dist, 'browser');
const statsFile = [join(dist, 'stats.json'), join(dist, 'browser-stats.json')].find(existsSync);
if (!statsFile) {
  process.stderr.write('bundle-size: no stats.json; build with statsJson (production config)\n');
  process.exit(1);
}
const LOGIN_BUDGET = 250 * 1024;

/** Route → the lazily loaded source files a visit needs beyond the initial files. */
const ROUTES = {
  '/login': ['src/app/features/public/routes.ts', 'src/app/features/public/login.ts'],
  '/': ['src/app/features/public/routes.ts', 'src/app/features/public/home.ts'],
};

const { outputs } = JSON.parse(readFileSync(statsFile, 'utf8'));
// Output paths carry the output folder; index.html and the disk use bare file names.
const byName = new Map(
  Object.entries(outputs).map(([path, meta]) => [path.split('/').pop(), meta]),
);
const nameOf = (path) => path.split('/').pop();

/** Files the browser loads before any route: the scripts and modulepreloads of index.html. */
const html = readFileSync(join(browser, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => nameOf(m[1]));

function closure(names) {
  const seen = new Set();
  const stack = [...names];
  while (stack.length) {
    const name = stack.pop();
    if (seen.has(name)) continue;
    seen.add(name);
    for (const imp of byName.get(name)?.imports ?? []) {
      if (imp.kind === 'import-statement') stack.push(nameOf(imp.path));
    }
  }
  return seen;
}

function chunkFor(source) {
  for (const [name, meta] of byName) {
    // Entry points are relative to the build's working directory, web/.
    if (meta.entryPoint && join(web, meta.entryPoint) === join(web, source)) return name;
  }
  throw new Error(`bundle-size: no chunk has entry point ${source}`);
}

const gz = (name) => {
  const file = join(browser, name);
  return existsSync(file) ? gzipSync(readFileSync(file), { level: 6 }).length : 0;
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

let failed = false;
const initialSet = closure(initial);
const initialBytes = [...initialSet].reduce((sum, name) => sum + gz(name), 0);
process.stdout.write(`\nbundle-size (gzip -6, ${relative(web, browser)})\n`);
process.stdout.write(`  initial files: ${kb(initialBytes)} (${initialSet.size} files)\n`);
for (const [route, sources] of Object.entries(ROUTES)) {
  const files = closure([...initial, ...sources.map(chunkFor)]);
  const total = [...files].reduce((sum, name) => sum + gz(name), 0);
  const over = route === '/login' && total > LOGIN_BUDGET;
  failed ||= over;
  const budget = route === '/login' ? ` (budget ${kb(LOGIN_BUDGET)}${over ? ' — OVER' : ''})` : '';
  process.stdout.write(
    `  route ${route}: ${kb(total)} initial JavaScript, ${files.size} files${budget}\n`,
  );
}
process.exit(failed ? 1 : 0);
