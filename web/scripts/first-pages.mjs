// Writes into the built index.html, for each page a first visit commonly opens, the lazy chunks
// that page needs (the whole static-import closure of its route files, from the esbuild
// metafile, minus what index.html loads anyway) as
//   <meta name="usher-preload" data-path="/login" content="chunk-a.js chunk-b.js …">
// `prefetchFirstPage` (app.config.ts) turns the entry for the opened path into
// `<link rel="modulepreload">`s at startup, so the chunks arrive in one round trip instead of
// one per level of imports (issue 14: Lighthouse's largest paint on /login and the member
// overview waited for two or three such levels). A meta tag, not a script: the CSP allows no
// inline script. Run by scripts/build.mjs after `ng build`, before the bundle-size report.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist/web');
const browser = join(dist, 'browser');

/**
 * Page → the lazily loaded source files its route matching and rendering import, the same as
 * FIRST_PAGE in app.config.ts. The public routes come first for every path: the router loads
 * them (the first `''` route) to match any URL.
 */
export const FIRST_PAGES = {
  '/login': ['src/app/features/public/routes.ts', 'src/app/features/public/login.ts'],
  '/': ['src/app/features/public/routes.ts', 'src/app/features/public/home.ts'],
  '/console/overview': [
    'src/app/features/public/routes.ts',
    'src/app/core/shell/console-shell.ts',
    'src/app/features/overview/routes.ts',
    'src/app/features/overview/overview.ts',
  ],
};

const nameOf = (path) => path.split('/').pop();

/** The meta tags for `outputs` (the metafile's) given the files index.html already loads. */
export function preloadTags(outputs, initial) {
  const byName = new Map(Object.entries(outputs).map(([path, meta]) => [nameOf(path), meta]));
  const closure = (names) => {
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
  };
  const chunkFor = (source) => {
    for (const [name, meta] of byName) {
      if (meta.entryPoint && join(web, meta.entryPoint) === join(web, source)) return name;
    }
    throw new Error(`first-pages: no chunk has entry point ${source}`);
  };
  const loaded = closure(initial);
  return Object.entries(FIRST_PAGES).map(([path, sources]) => {
    const files = [...closure(sources.map(chunkFor))].filter((name) => !loaded.has(name));
    return `<meta name="usher-preload" data-path="${path}" content="${files.sort().join(' ')}">`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const statsFile = [join(dist, 'stats.json'), join(dist, 'browser-stats.json')].find(existsSync);
  if (!statsFile) {
    process.stderr.write('first-pages: no stats.json; build with statsJson (production config)\n');
    process.exit(1);
  }
  const { outputs } = JSON.parse(readFileSync(statsFile, 'utf8'));
  const indexFile = join(browser, 'index.html');
  const html = readFileSync(indexFile, 'utf8').replace(/<meta name="usher-preload"[^>]*>/g, '');
  const initial = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => nameOf(m[1]));
  const tags = preloadTags(outputs, initial);
  writeFileSync(indexFile, html.replace('</head>', `${tags.join('')}</head>`));
  const counts = tags.map((tag) => tag.match(/\.js/g)?.length ?? 0);
  process.stdout.write(
    `first-pages: preload lists for ${Object.keys(FIRST_PAGES).join(', ')} ` +
      `(${counts.join(', ')} chunks)\n`,
  );
}
