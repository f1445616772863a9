// Where a first visit's main-thread time goes, by original function: loads a page in Debian's
// Chromium with a V8 CPU profile running (the HTTP cache off, so it is a cold visit), maps every
// sample through the build's source maps and prints self time by source file, inclusive time by
// function, and with FOCUS=<function> the self time of what runs under that function only
// (FOCUS=tickImpl: the renders). Not part of CI; a measuring tool like lighthouse.mjs.
//
//   node ../node_modules/@angular/cli/bin/ng.js build --source-map --output-path=/tmp/websm
//   node scripts/lighthouse.mjs /tmp/websm/browser --serve --dir=/tmp/lhsm      # prints the URL
//   node scripts/profile-load.mjs http://127.0.0.1:PORT/login /tmp/websm/browser [session.json]
//
// A third argument is the body of `POST /api/v1/auth/login` (as the demo answers it), stored as
// the app's session before the visit, for signed-in pages. CPU=4 applies DevTools' CPU slowdown;
// TOP=<n> sets the length of each list (30).
/* global localStorage */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { chromium } from 'playwright-core';

const [url, dir, sessionFile] = process.argv.slice(2);
if (!url || !dir) {
  console.error('usage: profile-load.mjs <url> <browser dir with .map files> [session.json]');
  process.exit(2);
}
const top = Number(process.env.TOP ?? 30);

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
const page = await context.newPage();
if (sessionFile) {
  await page.goto(new URL('/favicon.svg', url).href);
  const session = readFileSync(sessionFile, 'utf8');
  await page.evaluate((value) => localStorage.setItem('usher.session', value), session);
}
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
await cdp.send('Network.enable');
await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
if (process.env.CPU) {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.CPU) });
}
await cdp.send('Profiler.start');
await page.goto(url, { waitUntil: 'networkidle' });
await page.waitForTimeout(500);
const { profile } = await cdp.send('Profiler.stop');
await browser.close();

const consumers = new Map();
function consumer(file) {
  if (!consumers.has(file)) {
    const map = `${dir}/${file}.map`;
    consumers.set(
      file,
      existsSync(map) ? new SourceMap(JSON.parse(readFileSync(map, 'utf8'))) : null,
    );
  }
  return consumers.get(file);
}

/** The original source position and name of a profile frame (the frame as is without a map). */
function original(frame) {
  const file = frame.url.split('/').pop();
  const map = file ? consumer(file) : null;
  if (!map) return { file: file || frame.functionName, where: null, name: frame.functionName };
  // Zero-based both ways, as the profile's frames are.
  const at = map.findEntry(frame.lineNumber, frame.columnNumber);
  const source = (at.originalSource ?? file).replace(/^.*node_modules\//, '');
  return {
    file: source,
    where: `${source}:${(at.originalLine ?? 0) + 1}`,
    name: at.name || frame.functionName,
  };
}

const frames = new Map(profile.nodes.map((node) => [node.id, original(node.callFrame)]));
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const selfTime = new Map();
profile.samples.forEach((id, i) =>
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);

const focus = process.env.FOCUS;
const ancestors = function* (id) {
  for (let at = id; at !== undefined; at = parent.get(at)) yield frames.get(at);
};
const add = (table, key, us) => table.set(key, (table.get(key) ?? 0) + us);
const byFile = new Map();
const byFunction = new Map();
const inclusive = new Map();
let total = 0;
for (const [id, us] of selfTime) {
  if (focus && ![...ancestors(id)].some((frame) => frame.name === focus)) continue;
  total += us;
  const frame = frames.get(id);
  // A package's file without its deep path: "@angular/core/fesm2022/x.mjs", "rxjs/dist/esm".
  add(
    byFile,
    frame.file
      .split('/')
      .slice(0, frame.file.startsWith('@') ? 4 : 3)
      .join('/'),
    us,
  );
  add(byFunction, `${frame.name || '(anonymous)'} ${frame.where ?? frame.file}`, us);
  const seen = new Set();
  for (const outer of ancestors(id)) {
    if (!outer.where) continue;
    const key = `${outer.name || '(anonymous)'} ${outer.where}`;
    if (seen.has(key)) continue; // recursion counts once
    seen.add(key);
    add(inclusive, key, us);
  }
}

const list = (title, table) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${key}`);
  }
};
console.log(`${focus ? `under ${focus}` : 'whole load'}: ${(total / 1000).toFixed(1)} ms sampled`);
list('self time by file', byFile);
list('self time by function', byFunction);
list('inclusive time by function', inclusive);
