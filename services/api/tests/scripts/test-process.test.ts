/**
 * The processes that open and close many PGlite instances (the API's jest run and the reliability
 * runner) start Node without wasm-to-JS wrapper tier-up: V8 13.6 can abort such a process while
 * freeing a dead import wrapper (docs/development.md, "PGlite and a V8 crash").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const API = join(dirname(fileURLToPath(import.meta.url)), '../..');
const FLAG = '--wasm-wrapper-tiering-budget=2147483647';

test.each(['test', 'test:pglite'])(
  'the %s script starts jest with the flag, before jest itself',
  (script) => {
    const pkg = JSON.parse(readFileSync(join(API, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const words = pkg.scripts[script]!.split(/\s+/);
    expect(words[0]).toBe('node');
    const jestAt = words.findIndex((w) => w.endsWith('jest/bin/jest.js'));
    expect(jestAt).toBeGreaterThan(0);
    expect(words.slice(1, jestAt)).toContain(FLAG);
  },
);

test('every suite of the PGlite pass exists (a misspelt one would silently not run)', async () => {
  const { ENGINE_SPECIFIC } = (await import(join(API, 'jest.pglite.config.js'))) as {
    ENGINE_SPECIFIC: string[];
  };
  expect(ENGINE_SPECIFIC.length).toBeGreaterThan(10);
  expect(
    ENGINE_SPECIFIC.filter((suite) => !existsSync(join(API, 'tests', `${suite}.test.ts`))),
  ).toEqual([]);
});

test('the reliability runner passes the flag to node, before jest', () => {
  const source = readFileSync(join(API, 'reliability/run.mjs'), 'utf8');
  const flagAt = source.indexOf(`'${FLAG}'`);
  expect(flagAt).toBeGreaterThan(0);
  expect(flagAt).toBeLessThan(source.indexOf('    jest,'));
});

test('this Node accepts the flag (a V8 that dropped it would refuse to start)', () => {
  const accepted = spawnSync(process.execPath, [FLAG, '-e', 'process.exit(0)'], {
    encoding: 'utf8',
  });
  expect(accepted.stderr).toBe('');
  expect(accepted.status).toBe(0);
  // The check above means something: an unknown V8 flag is refused.
  const unknown = spawnSync(process.execPath, ['--wasm-no-such-flag-for-usher=1', '-e', '0'], {
    encoding: 'utf8',
  });
  expect(unknown.status).not.toBe(0);
});
