// The production build's module graph, read from the esbuild metafile (`statsJson`): which
// output file holds a source file, and which files a browser must fetch to run it (its static
// imports, transitively). Shared by the bundle-size budget and the route preload map.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const web = join(dirname(fileURLToPath(import.meta.url)), '..');
export const dist = join(web, 'dist/web');
export const browser = join(dist, 'browser');

const nameOf = (path) => path.split('/').pop();

/** Loads the graph of the build in `dist/web`; throws when the build wrote no metafile. */
export function loadChunkGraph() {
  const statsFile = [join(dist, 'stats.json'), join(dist, 'browser-stats.json')].find(existsSync);
  if (!statsFile) throw new Error('no stats.json in dist/web; build with statsJson (production)');
  const { outputs } = JSON.parse(readFileSync(statsFile, 'utf8'));
  // Output paths carry the output folder; index.html and the disk use bare file names.
  const byName = new Map(Object.entries(outputs).map(([path, meta]) => [nameOf(path), meta]));
  const html = readFileSync(join(browser, 'index.html'), 'utf8');
  /** Files the browser loads before any route: the scripts and modulepreloads of index.html. */
  const initial = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => nameOf(m[1]));

  /** `names` and everything they import statically (dynamic imports load later, on demand). */
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

  /** The output file whose entry point is `source` (a path relative to web/). */
  function chunkFor(source) {
    for (const [name, meta] of byName) {
      // Entry points are relative to the build's working directory, web/.
      if (meta.entryPoint && join(web, meta.entryPoint) === join(web, source)) return name;
    }
    throw new Error(`no chunk has entry point ${source}`);
  }

  return { byName, html, initial, closure, chunkFor };
}
