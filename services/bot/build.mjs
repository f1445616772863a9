// Bundles the bot into dist/main.js (workspace packages inlined, npm packages external), the
// layout the image uses (70-deploy.md §5; Dockerfile.bot).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

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
  external: Object.keys(pkg.dependencies ?? {}),
  define: { __USHER_VERSION__: JSON.stringify(rootPkg.version) },
  logLevel: 'warning',
});
writeFileSync(
  'dist/package.json',
  JSON.stringify(
    {
      name: '@usher/bot-dist',
      version: rootPkg.version,
      private: true,
      type: 'module',
      dependencies: pkg.dependencies,
    },
    null,
    2,
  ) + '\n',
);
