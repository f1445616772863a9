// The esbuild options the API's bundle is built with: build.mjs (dist/main.js, the image) and the
// process suites' bundleApi (tests/support/api-process.ts) share them, so the tests run the
// bundle the image ships.
import { readFileSync } from 'node:fs';
import { limiterDrizzle } from './build-limiter.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

export const bundleOptions = {
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  // npm packages stay external except `usher.bundled` (package.json): drizzle-orm, whose
  // 179 KB package.json `exports` map Node re-parsed on every subpath import — 590 ms of start
  // and ~90 MB of RSS (issue 21) — and rate-limiter-flexible (build-limiter.mjs, issue 33).
  external: Object.keys(pkg.dependencies ?? {}).filter(
    (name) => !pkg.usher?.bundled?.includes(name),
  ),
  plugins: [limiterDrizzle],
  // rate-limiter-flexible is CommonJS that requires Node built-ins (`cluster`, …): the ESM bundle
  // gives esbuild's require shim a real `require`.
  banner: {
    js: "import { createRequire as usherCreateRequire } from 'node:module'; const require = usherCreateRequire(import.meta.url);",
  },
};
