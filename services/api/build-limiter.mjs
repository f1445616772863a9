// An esbuild plugin of build.mjs (tested in tests/process/build-limiter.test.ts).
import { readFileSync } from 'node:fs';

/**
 * rate-limiter-flexible's Drizzle store loads drizzle-orm with `import(specifier)` on its first
 * use (the first login): a specifier the bundler cannot see, so Node loaded a second, unbundled
 * drizzle-orm from node_modules — the package.json parsing build.mjs avoids, again: +90 MB of RSS for the
 * rest of the process's life (issue 33: 126 MB idle → ~200 MB after the first sign-ins). The
 * package is bundled (`usher.bundled`) and its import made literal, so it gets the bundle's copy.
 */
export const limiterDrizzle = {
  name: 'rate-limiter-flexible-drizzle',
  setup(b) {
    b.onLoad({ filter: /rate-limiter-flexible[\\/]lib[\\/]RateLimiterDrizzle\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const dynamic = 'return await import(/* @vite-ignore */ specifier);';
      if (!text.includes(dynamic)) {
        throw new Error(`${args.path}: its drizzle-orm import changed; update build.mjs`);
      }
      const literal =
        "return specifier.endsWith('/sql') ? await import('drizzle-orm/sql') : await import('drizzle-orm');";
      return { contents: text.replace(dynamic, literal), loader: 'js' };
    });
  },
};
