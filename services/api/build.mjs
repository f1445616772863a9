// Bundles the API into dist/main.js (workspace packages and drizzle-orm inlined, other npm
// packages external) and copies the committed migrations next to it, the layout the image uses
// (70-deploy.md §5).
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const rootPkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  ...bundleOptions,
  sourcemap: true,
  define: { __USHER_VERSION__: JSON.stringify(rootPkg.version) },
  logLevel: 'warning',
});
cpSync('drizzle', 'dist/drizzle', { recursive: true });
writeFileSync(
  'dist/package.json',
  JSON.stringify(
    {
      name: '@usher/api-dist',
      version: rootPkg.version,
      private: true,
      type: 'module',
      dependencies: pkg.dependencies,
    },
    null,
    2,
  ) + '\n',
);
