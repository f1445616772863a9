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
import { browser, loadChunkGraph, web } from './chunk-graph.mjs';

/**
 * Code every page needs: the public routes (the router loads them, the first `''` route in
 * app.routes.ts, before it can rule them out for any URL) and the icons (app.config.ts imports
 * them at start).
 */
export const ALWAYS = ['src/app/features/public/routes.ts', 'src/app/core/icons/icons.ts'];

/**
 * Landing pages: a path pattern, whether a session must exist (a signed-out visitor to the
 * console is sent to /login, so its code would be wasted), the lazily loaded sources the router
 * needs there, the page's first API reads beyond `/me` (exactly as the app requests them: the
 * early-read interceptor matches the whole URL; boot.js starts them beside `/me`) and which of
 * them hold the largest paint's poster. First match wins, so the catch-all console
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
    // Whose first poster is the largest paint, in the page's order (boot.js preloads the first
    // one there is): "continue watching" stands above the movies when it has anything.
    posters: ['/api/v1/media/resume?limit=12', '/api/v1/media/latest?type=movie&limit=20'],
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
    landings: LANDINGS.map(({ path, signedIn, sources, reads = [], posters = [] }) => ({
      path,
      signedIn,
      files: [...graph.closure([...ALWAYS, ...sources].map(graph.chunkFor))].filter(
        (name) => !initial.has(name),
      ),
      reads,
      posters,
    })),
    i18n: encodeURIComponent(`${build.version}-${build.commit}`),
  };
}

/**
 * index.html with a `<link rel="modulepreload">` for every file main.js imports statically
 * (issue 36). Angular's builder no longer writes these, so the browser found the ~100 KB of
 * framework code main imports only once main itself had arrived and been parsed: one round trip
 * and a parse later than main, on every page. Listed in the HTML, the preload scanner asks for
 * them alongside main (before boot.js has even run). Idempotent: a file already linked is not
 * linked twice.
 */
export function withInitialPreloads(html, graph) {
  const main = graph.initial;
  const linked = new Set(main);
  const files = [...graph.closure(main)].filter((name) => !linked.has(name)).sort();
  const missing = files.filter((name) => !html.includes(`href="${name}"`));
  if (missing.length === 0) return html;
  const tag = /<script src="main-[^"]+\.js" type="module"><\/script>/.exec(html);
  if (!tag) throw new Error('route-preload: index.html has no main script to preload beside');
  const links = missing.map((name) => `<link rel="modulepreload" href="${name}">`).join('');
  return html.replace(tag[0], `${tag[0]}${links}`);
}

/**
 * Code the installed app needs offline that no online visit loads: the page for an unreachable
 * server (app.ts `@defer`s it, issue 14) — its files and their imports beyond the initial ones.
 * Angular's worker caches code as it is used, so without these in the prefetched shell an offline
 * start found the chunk missing (NG0750) and showed nothing (issue 36's offline e2e).
 */
export const OFFLINE_SOURCES = ['src/app/core/shell/unreachable.ts'];

/** ngsw-config.json with `OFFLINE_SOURCES`' files added to the prefetched shell group. */
export function offlineConfig(config, graph) {
  const initial = graph.closure(graph.initial);
  const files = [...graph.closure(OFFLINE_SOURCES.map(graph.chunkFor))]
    .filter((name) => !initial.has(name))
    .sort()
    .map((name) => `/${name}`);
  return {
    ...config,
    assetGroups: config.assetGroups.map((group) =>
      group.installMode === 'prefetch'
        ? {
            ...group,
            resources: { ...group.resources, files: [...group.resources.files, ...files] },
          }
        : group,
    ),
  };
}

function main() {
  // build.mjs passes the build's version and commit (the `USHER_BUILD` define).
  const build = JSON.parse(process.env.USHER_BUILD ?? '{"version":"dev","commit":"local"}');
  const graph = loadChunkGraph();
  const index = join(browser, 'index.html');
  writeFileSync(index, withInitialPreloads(readFileSync(index, 'utf8'), graph));
  const config = bootConfig(graph, build);
  const boot = join(browser, 'boot.js');
  const source = readFileSync(boot, 'utf8');
  if (!source.includes(PLACEHOLDER)) {
    process.stderr.write(`route-preload: ${boot} has no ${PLACEHOLDER} to fill\n`);
    process.exit(1);
  }
  writeFileSync(boot, source.replace(PLACEHOLDER, JSON.stringify(config)));
  // build.mjs hands this to Angular's ngsw-config.js in place of ngsw-config.json.
  const ngsw = JSON.parse(readFileSync(join(web, 'ngsw-config.json'), 'utf8'));
  writeFileSync(
    join(browser, '..', 'ngsw-config.generated.json'),
    JSON.stringify(offlineConfig(ngsw, graph), null, 2),
  );
  const summary = config.landings.map((l) => `${l.path} ${l.files.length} files`).join(', ');
  process.stdout.write(`route-preload: ${summary}\n`);
}

// Imported by bundle-size.mjs for the landing list; run by build.mjs to fill boot.js.
if (import.meta.url === pathToFileURL(process.argv[1]).href) main();
