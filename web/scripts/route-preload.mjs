// Fills public/boot.js's config in dist/web/browser/boot.js (issue 14: Lighthouse on the member
// overview): the landing pages' code and first reads, and the language file's cache key. A lazy
// route's code otherwise arrives in a chain the browser discovers step by step: main → the
// router's route files → the page's chunk → the ~20 shared chunks it imports, each step a round
// trip (150 ms on Lighthouse's mobile link). boot.js runs in <head> before main and adds
// `<link rel="modulepreload">` for every file the landing page will import, so they download
// alongside main, and starts the first reads. Only the pages people land on are listed; every
// other page still loads its code when it is visited.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browser, loadChunkGraph } from './chunk-graph.mjs';

/**
 * Code every page needs: the public routes (the router loads them, the first `''` route in
 * app.routes.ts, before it can rule them out for any URL) and the icons (app.config.ts imports
 * them at start).
 */
export const ALWAYS = ['src/app/features/public/routes.ts', 'src/app/core/icons/icons.ts'];

/**
 * Landing pages: a path pattern, whether a session must exist (a signed-out visitor to the
 * console is sent to /login, so its code would be wasted), the lazily loaded sources the router
 * needs there, and the page's first API reads beyond `/me` (exactly as the app requests them:
 * the early-read interceptor matches the whole URL). First match wins, so the catch-all console
 * entry comes last.
 */
export const LANDINGS = [
  { path: '^/$', signedIn: false, sources: ['src/app/features/public/home.ts'] },
  { path: '^/login$', signedIn: false, sources: ['src/app/features/public/login.ts'] },
  {
    path: '^/console(/overview)?/?$',
    signedIn: true,
    sources: [
      'src/app/core/shell/console-shell.ts',
      'src/app/features/overview/routes.ts',
      'src/app/features/overview/overview.ts',
    ],
    // The "recently added" rails: their posters are the overview's largest paint; "continue
    // watching" stands above them, so it must not arrive after them (issue 36).
    reads: [
      '/api/v1/media/latest?type=movie&limit=20',
      '/api/v1/media/latest?type=series&limit=20',
      '/api/v1/media/resume?limit=12',
    ],
  },
  {
    path: '^/admin(/overview)?/?$',
    signedIn: true,
    sources: [
      'src/app/core/shell/console-shell.ts',
      'src/app/features/admin/routes.ts',
      'src/app/features/admin/admin-overview.ts',
    ],
  },
  { path: '^/(console|admin)/', signedIn: true, sources: ['src/app/core/shell/console-shell.ts'] },
];

const PLACEHOLDER = "/* boot-config */ { landings: [], i18n: '' }";

/**
 * Each landing with the files to preload (its sources' and ALWAYS's closure minus what
 * index.html loads) and its reads; `i18n` is the language file's cache key (`?v=`), as
 * src/app/core/i18n/i18n.ts builds it.
 */
export function bootConfig(graph, build) {
  const initial = graph.closure(graph.initial);
  return {
    landings: LANDINGS.map(({ path, signedIn, sources, reads = [] }) => ({
      path,
      signedIn,
      files: [...graph.closure([...ALWAYS, ...sources].map(graph.chunkFor))].filter(
        (name) => !initial.has(name),
      ),
      reads,
    })),
    i18n: encodeURIComponent(`${build.version}-${build.commit}`),
  };
}

function main() {
  // build.mjs passes the build's version and commit (the `USHER_BUILD` define).
  const build = JSON.parse(process.env.USHER_BUILD ?? '{"version":"dev","commit":"local"}');
  const config = bootConfig(loadChunkGraph(), build);
  const boot = join(browser, 'boot.js');
  const source = readFileSync(boot, 'utf8');
  if (!source.includes(PLACEHOLDER)) {
    process.stderr.write(`route-preload: ${boot} has no ${PLACEHOLDER} to fill\n`);
    process.exit(1);
  }
  writeFileSync(boot, source.replace(PLACEHOLDER, JSON.stringify(config)));
  const summary = config.landings.map((l) => `${l.path} ${l.files.length} files`).join(', ');
  process.stdout.write(`route-preload: ${summary}\n`);
}

// Imported by bundle-size.mjs for the landing list; run by build.mjs to fill boot.js.
if (import.meta.url === pathToFileURL(process.argv[1]).href) main();
