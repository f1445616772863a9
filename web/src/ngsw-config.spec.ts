import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * ngsw-config.json (issue 36): the installed app's offline shell. Member data must never be
 * kept in the browser's caches, so nothing under /api may be cached or answered by the worker:
 * no data group, no asset pattern and no navigation URL may match an API path.
 */
interface NgswConfig {
  index: string;
  navigationUrls: string[];
  navigationRequestStrategy?: string;
  assetGroups: {
    name: string;
    installMode: string;
    resources: { files?: string[]; urls?: string[] };
  }[];
  dataGroups?: { name: string; urls: string[] }[];
}

const config = JSON.parse(
  readFileSync(join(__dirname, '../ngsw-config.json'), 'utf8'),
) as NgswConfig;

/** The worker's glob semantics (`**` any depth, `*` one segment), as a RegExp. */
function globToRegex(glob: string): RegExp {
  const body = glob
    .split('**')
    .map((part) => part.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

/** Whether the worker treats `path` as a navigation to the app (its include/exclude list). */
function navigates(path: string): boolean {
  const include = config.navigationUrls.filter((u) => !u.startsWith('!')).map(globToRegex);
  const exclude = config.navigationUrls
    .filter((u) => u.startsWith('!'))
    .map((u) => globToRegex(u.slice(1)));
  return include.some((r) => r.test(path)) && !exclude.some((r) => r.test(path));
}

const API_PATHS = [
  '/api/v1/me',
  '/api/v1/media/latest',
  '/api/v1/media/posters/123',
  '/api/v1/public/poster-wall/0',
  '/api/v1/docs',
  '/api/v1/admin/users',
];

describe('ngsw-config.json', () => {
  it('should have no data group: no API reply is ever cached', () => {
    expect(config.dataGroups ?? []).toEqual([]);
  });

  it('should cache no API path in any asset group', () => {
    for (const group of config.assetGroups) {
      expect(group.resources.urls ?? []).toEqual([]);
      for (const file of group.resources.files ?? []) {
        const pattern = globToRegex(file);
        for (const path of API_PATHS)
          expect([file, path, pattern.test(path)]).toEqual([file, path, false]);
      }
    }
  });

  it('should not answer API, health or metrics navigations with the app shell', () => {
    for (const path of [...API_PATHS, '/health', '/metrics']) {
      expect([path, navigates(path)]).toEqual([path, false]);
    }
    for (const path of ['/login', '/console/overview', '/admin/users', '/console/requests/new']) {
      expect([path, navigates(path)]).toEqual([path, true]);
    }
  });

  it('should go to the network first for pages, so a deploy shows at once', () => {
    expect(config.navigationRequestStrategy).toBe('freshness');
    expect(config.index).toBe('/index.html');
    const shell = config.assetGroups.find((g) => g.installMode === 'prefetch')!;
    expect(shell.resources.files).toEqual(expect.arrayContaining(['/index.html', '/boot.js']));
  });
});

describe('manifest.webmanifest', () => {
  const manifest = JSON.parse(
    readFileSync(join(__dirname, '../public/manifest.webmanifest'), 'utf8'),
  ) as {
    icons: { src: string; sizes: string; purpose: string }[];
    start_url: string;
    display: string;
  };

  it('should be installable: standalone, a start URL, 192 and 512 px icons and a maskable one', () => {
    expect(manifest.display).toBe('standalone');
    expect(manifest.start_url).toBe('/console/overview');
    const sizes = manifest.icons.map((i) => i.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const bytes = readFileSync(join(__dirname, '../public', icon.src));
      expect(bytes.length).toBeGreaterThan(0);
      if (icon.src.endsWith('.png')) {
        const [w, h] = icon.sizes.split('x').map(Number);
        expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([w, h]);
      }
    }
  });
});

describe('sw.js (the registered worker: Angular behind a rule)', () => {
  /** Runs public/sw.js in a fake worker scope; returns its fetch listener and what it imported. */
  function load() {
    const source = readFileSync(join(__dirname, '../public/sw.js'), 'utf8');
    const order: string[] = [];
    let listener: ((event: unknown) => void) | undefined;
    const self = {
      location: new URL('https://usher.example.org/sw.js'),
      addEventListener: (type: string, fn: (event: unknown) => void) => {
        order.push(`listen ${type}`);
        listener = fn;
      },
    };
    const importScripts = (url: string) => order.push(`import ${url}`);
    new Function('self', 'importScripts', source)(self, importScripts);
    const passes = (url: string) => {
      let stopped = false;
      listener!({ request: { url }, stopImmediatePropagation: () => (stopped = true) });
      return !stopped;
    };
    return { order, passes };
  }

  it("should listen before Angular's worker loads, so its rule runs first", () => {
    expect(load().order).toEqual(['listen fetch', 'import ./ngsw-worker.js']);
  });

  it('should keep other origins and the API away from Angular, and pass the app through', () => {
    const { passes } = load();
    expect(passes('https://image.tmdb.org/t/p/w342/poster.jpg')).toBe(false);
    expect(passes('https://usher.example.org/api/v1/me')).toBe(false);
    expect(passes('https://usher.example.org/health')).toBe(false);
    expect(passes('https://usher.example.org/metrics')).toBe(false);
    expect(passes('https://usher.example.org/main-ABC.js')).toBe(true);
    expect(passes('https://usher.example.org/console/overview')).toBe(true);
    expect(passes('https://usher.example.org/apiary')).toBe(true);
  });
});
