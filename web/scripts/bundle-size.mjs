// Prints the JavaScript a first visit to each public route downloads (gzip level 6, like a
// default `gzip`), from the esbuild metafile of the production build, and fails the build when
// a budget is passed: the login route's JavaScript (issue 3: 250 KB gzipped), the initial
// JavaScript (issue 14: 200 KB) and everything a first visit to /login transfers (issue 14:
// JavaScript, CSS, fonts, language file and page, 350 KB).
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { browser, loadChunkGraph, web } from './chunk-graph.mjs';
import { ALWAYS, LANDINGS } from './route-preload.mjs';

const LOGIN_BUDGET = 250 * 1024;
/** Issue 14: the JavaScript every route loads first, and all a first visit to /login transfers. */
const INITIAL_JS_BUDGET = 200 * 1024;
const LOGIN_TOTAL_BUDGET = 350 * 1024;

/** Route → the lazily loaded source files a visit needs beyond the initial files. */
const sourcesOf = (pattern) => [
  ...ALWAYS,
  ...LANDINGS.find((landing) => landing.path === pattern).sources,
];
const ROUTES = { '/login': sourcesOf('^/login$'), '/': sourcesOf('^/$') };

let graph;
try {
  graph = loadChunkGraph();
} catch (error) {
  process.stderr.write(`bundle-size: ${error.message}\n`);
  process.exit(1);
}
const { byName, html, initial, closure, chunkFor } = graph;

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
// Charts load only inside the pages that draw them (60-web.md §6.5): no ECharts code may reach
// the initial files or the login route.
const loginFiles = closure([...initial, ...ROUTES['/login'].map(chunkFor)]);
const charted = [...loginFiles].filter((name) =>
  Object.keys(byName.get(name)?.inputs ?? {}).some((input) =>
    /node_modules\/(echarts|zrender|ngx-echarts)\//.test(input),
  ),
);
failed ||= charted.length > 0;
process.stdout.write(
  `  ECharts before /login: ${charted.length ? `in ${charted.join(', ')} — NOT LAZY` : 'none'}\n`,
);
const initialOver = initialBytes > INITIAL_JS_BUDGET;
failed ||= initialOver;
process.stdout.write(
  `  initial JavaScript budget ${kb(INITIAL_JS_BUDGET)}${initialOver ? ' — OVER' : ': ok'}\n`,
);

// A first visit to /login, compressed as served: the route's JavaScript, the stylesheets of
// index.html, every Latin font face they declare (a browser fetches only the faces a page uses,
// so this over-counts), the English language file and index.html itself.
const loginJs = closure([...initial, ...ROUTES['/login'].map(chunkFor)]);
const gzFile = (path) => (existsSync(path) ? gzipSync(readFileSync(path), { level: 6 }).length : 0);
const sheets = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g)].map(
  (m) => m[1],
);
const fonts = new Set();
for (const sheet of sheets) {
  const css = readFileSync(join(browser, sheet), 'utf8');
  for (const face of css.matchAll(/@font-face\s*{([^}]*)}/g)) {
    const range = /unicode-range:\s*([^;]+)/.exec(face[1])?.[1] ?? 'U+0-10FFFF';
    const latin = range.split(',').some((part) => {
      const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
      const a = parseInt(from.replace(/\?/g, '0'), 16);
      const b = parseInt(to.replace(/\?/g, 'F'), 16);
      return a <= 0x41 && 0x41 <= b;
    });
    const woff2 = /url\(["']?([^"')]+\.woff2)["']?\)/.exec(face[1])?.[1];
    if (latin && woff2) fonts.add(woff2);
  }
}
const parts = {
  JavaScript: [...loginJs].reduce((sum, name) => sum + gz(name), 0),
  CSS: sheets.reduce((sum, sheet) => sum + gzFile(join(browser, sheet)), 0),
  // woff2 is compressed already: its size on disk is what travels.
  fonts: [...fonts].reduce((sum, font) => sum + readFileSync(join(browser, font)).length, 0),
  'language file': gzFile(join(browser, 'i18n/en.json')),
  'index.html': gzFile(join(browser, 'index.html')),
};
const total = Object.values(parts).reduce((sum, bytes) => sum + bytes, 0);
const totalOver = total > LOGIN_TOTAL_BUDGET;
failed ||= totalOver;
process.stdout.write(
  `  first visit to /login: ${kb(total)} (budget ${kb(LOGIN_TOTAL_BUDGET)}${totalOver ? ' — OVER' : ''})\n` +
    Object.entries(parts)
      .map(
        ([part, bytes]) =>
          `    ${part}: ${kb(bytes)}${part === 'fonts' ? ` (${fonts.size} faces)` : ''}\n`,
      )
      .join(''),
);
process.exit(failed ? 1 : 0);
