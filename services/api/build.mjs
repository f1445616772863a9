// Bundles the API into dist/main.js (workspace packages and drizzle-orm inlined, other npm
// packages external) and copies the committed migrations next to it, the layout the image uses
// (70-deploy.md §5).
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { limiterDrizzle } from './build-limiter.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const rootPkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  sourcemap: true,
  // npm packages stay external except `usher.bundled` (package.json): drizzle-orm, whose
  // 179 KB package.json `exports` map Node re-parsed on every subpath import — 590 ms of start
  // and ~90 MB of RSS (issue 21). It stays in dist/package.json, unused at run time.
  external: Object.keys(pkg.dependencies ?? {}).filter(
    (name) => !pkg.usher?.bundled?.includes(name),
  ),
  plugins: [limiterDrizzle],
  // rate-limiter-flexible is CommonJS that requires Node built-ins (`cluster`, …): the ESM bundle
  // gives esbuild's require shim a real `require`.
  banner: {
    js: "import { createRequire as usherCreateRequire } from 'node:module'; const require = usherCreateRequire(import.meta.url);",
  },
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
