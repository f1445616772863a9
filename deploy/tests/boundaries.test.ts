/**
 * The import boundaries `npm run lint` enforces (.dependency-cruiser.cjs through
 * scripts/lint/boundaries.mjs): each case plants a small offending file (or pair) in the real
 * tree, runs the same script the lint targets run on just those files, and expects it to fail
 * naming the rule; the planted files are removed afterwards. The last case runs it over every
 * project and expects the clean tree to pass.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/lint/boundaries.mjs');
// Unlikely to meet a real file; removed in `finally` even when an assertion fails.
const PROBE = `zz-boundary-probe-${process.pid}`;

function cruise(paths: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [SCRIPT, ...paths], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Writes the files (path from the root → source), cruises them, removes them. */
function withProbe(files: Record<string, string>): { status: number | null; output: string } {
  const paths = Object.keys(files);
  try {
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(ROOT, path)), { recursive: true });
      writeFileSync(join(ROOT, path), source);
    }
    return cruise(paths);
  } finally {
    for (const path of paths) rmSync(join(ROOT, path), { force: true });
  }
}

const API = 'services/api/src';

describe('import boundaries (npm run lint)', () => {
  it.each([
    ['../users/bulk.js', `${API}/modules/redeem/${PROBE}.ts`],
    ['./../users/bulk.js', `${API}/modules/redeem/${PROBE}.ts`],
    ['../../modules/users/bulk.js', `${API}/modules/redeem/${PROBE}.ts`],
    ['../../users/bulk.js', `${API}/modules/redeem/routes/${PROBE}.ts`],
  ])("should refuse an API module's deep import into another module spelled '%s'", (spec, path) => {
    const result = withProbe({ [path]: `export * from '${spec}';\n` });
    expect(result.status).toBe(1);
    expect(result.output).toContain('api-module-through-index');
    expect(result.output).toContain('services/api/src/modules/users/bulk.ts');
  });

  it("should accept the same import through the module's index.ts", () => {
    const result = withProbe({
      [`${API}/modules/redeem/${PROBE}.ts`]: `export * from './../users/index.js';\n`,
    });
    expect(result.output).not.toContain('api-module-through-index');
    expect(result.status).toBe(0);
  });

  it('should refuse a deep import into a module from outside modules/', () => {
    const result = withProbe({
      [`${API}/${PROBE}.ts`]: `export * from './modules/users/bulk.js';\n`,
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('api-outside-modules-through-index');
  });

  it('should refuse a lower API floor importing a higher one', () => {
    const result = withProbe({
      [`${API}/db/${PROBE}.ts`]: `export { handleError } from '../http/errors.js';\n`,
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('api-floor-db');
  });

  it.each([
    ['api', `${API}/modules/redeem`, '.js'],
    ['bot', 'services/bot/src', '.js'],
    ['contracts', 'services/contracts/src', '.js'],
    ['testkit (fakes)', 'services/testkit/src/media-server', '.js'],
    ['web', 'web/src/app/shared', ''],
  ])('should refuse a cycle in %s', (_project, folder, ext) => {
    const result = withProbe({
      [`${folder}/${PROBE}-a.ts`]: `import type { B } from './${PROBE}-b${ext}';\nexport type A = B;\n`,
      [`${folder}/${PROBE}-b.ts`]: `import type { A } from './${PROBE}-a${ext}';\nexport type B = A | 1;\n`,
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('no-cycles');
  });

  it("should refuse a web feature importing another feature's internals", () => {
    const result = withProbe({
      [`web/src/app/features/admin-devices/${PROBE}.ts`]:
        "export { UsersApi } from '../admin-users/users-api';\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('web-feature-through-public-surface');
  });

  it("should accept a web feature importing another feature's index.ts", () => {
    const result = withProbe({
      [`web/src/app/features/admin-devices/${PROBE}.ts`]:
        "export { UsersApi } from '../admin-users';\n",
    });
    expect(result.status).toBe(0);
  });

  it('should refuse shared/ importing a feature', () => {
    const result = withProbe({
      [`web/src/app/shared/${PROBE}.ts`]: "export { UsersApi } from '../features/admin-users';\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('web-core-shared-not-features');
  });

  it("should refuse the bot's message formatting importing a telegraf feature", () => {
    const result = withProbe({
      [`services/bot/src/format/${PROBE}.ts`]: "export * from '../bot/redeem.js';\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('bot-format-is-pure');
  });

  it('should refuse contracts importing a Node built-in', () => {
    const result = withProbe({
      [`services/contracts/src/${PROBE}.ts`]: "export { randomUUID } from 'node:crypto';\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('contracts-browser-safe');
  });

  it('should refuse shipped code importing a package its project does not declare', () => {
    // `yaml` is a root devDependency (the deploy checks use it), not one of the API's.
    const result = withProbe({ [`${API}/${PROBE}.ts`]: "export { parse } from 'yaml';\n" });
    expect(result.status).toBe(1);
    expect(result.output).toContain('shipped-code-no-dev-packages');
  });

  it('should pass on the clean tree, every project', () => {
    const result = cruise([
      'services/api/src',
      'services/api/tests',
      'services/bot/src',
      'services/bot/tests',
      'services/contracts/src',
      'services/testkit/src',
      'services/testkit/tests',
      'web/src',
      'web/e2e',
      'deploy/tests',
    ]);
    expect(result.output).toContain('no dependency violations found');
    expect(result.status).toBe(0);
  });
});
