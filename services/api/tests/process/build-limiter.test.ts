// build.mjs bundles rate-limiter-flexible with its drizzle-orm import made literal, so the first
// login does not load a second, unbundled drizzle-orm (+90 MB RSS, issue 33).
import { join } from 'node:path';
import { build } from 'esbuild';
// @ts-expect-error -- a plain ES module of the build, without types.
import { limiterDrizzle } from '../../build-limiter.mjs';

describe('the rate limiter in the bundle', () => {
  it('should import drizzle-orm by a literal specifier the bundler resolves', async () => {
    const out = await build({
      stdin: {
        contents: "export { RateLimiterDrizzle } from 'rate-limiter-flexible';",
        resolveDir: process.cwd(),
      },
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      external: ['drizzle-orm', 'drizzle-orm/sql'],
      plugins: [limiterDrizzle],
      logLevel: 'silent',
    });
    const text = out.outputFiles[0]!.text;
    expect(text).toContain('import("drizzle-orm")');
    expect(text).toContain('import("drizzle-orm/sql")');
    expect(text).not.toMatch(/import\(\s*\/\* @vite-ignore \*\/\s*specifier\s*\)/);
  });

  it('should fail the build when the library no longer has the line it rewrites', async () => {
    const plugin = limiterDrizzle as { setup(b: unknown): void };
    let onLoad: ((args: { path: string }) => unknown) | undefined;
    plugin.setup({ onLoad: (_: unknown, fn: typeof onLoad) => (onLoad = fn) });
    expect(() => onLoad!({ path: join(process.cwd(), 'package.json') })).toThrow(
      'its drizzle-orm import changed',
    );
  });
});
