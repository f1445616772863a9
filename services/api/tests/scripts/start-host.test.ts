/**
 * `npm start` (scripts/start.mjs) keeps the API on loopback until an operator sets HOST: a first
 * start prints a temporary admin password, and /metrics and the internal routes share the port.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

interface ListenHost {
  START_HOST: string;
  startHost(shellEnv: Record<string, string | undefined>, envFileText: string): string | undefined;
}

let lib: ListenHost;
beforeAll(async () => {
  lib = (await import(pathToFileURL(join(ROOT, 'scripts/lib/listen-host.mjs')).href)) as ListenHost;
});

test('should listen on 127.0.0.1 when neither the shell nor .env sets HOST', () => {
  expect(lib.START_HOST).toBe('127.0.0.1');
  expect(lib.startHost({}, 'JWT_SECRET=x\n# HOST=0.0.0.0\n')).toBe('127.0.0.1');
  expect(lib.startHost({ HOST: '' }, '')).toBe('127.0.0.1');
});

test("should leave HOST to the operator's shell or .env", () => {
  expect(lib.startHost({ HOST: '0.0.0.0' }, '')).toBeUndefined();
  expect(lib.startHost({}, 'PORT=8080\nHOST=192.168.1.5\n')).toBeUndefined();
});

test('should pass the chosen HOST to the API process it spawns', () => {
  const source = readFileSync(join(ROOT, 'scripts/start.mjs'), 'utf8');
  expect(source).toMatch(
    /const host = startHost\(process\.env, readFileSync\(envFile, 'utf8'\)\);/,
  );
  expect(source).toMatch(/if \(host\) \{\s+env\.HOST = host;/);
  expect(source.indexOf('env.HOST = host')).toBeLessThan(source.indexOf('const api = spawn('));
});

test('should keep the images on every interface: the API default stays unset', () => {
  const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
  expect(example).toMatch(/^# HOST=/m);
  expect(example).not.toMatch(/^HOST=/m);
});
