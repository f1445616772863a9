/**
 * scripts/ci/failure-digest.mjs: what `.ci/run` prints last when a phase fails. A CI report may
 * keep only the end of the output; the digest must name the failed task and why, from nx's
 * stream-mode output (every line prefixed with its project), whether jest summarised or the task
 * died first.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/tools.js';

const SCRIPT = join(ROOT, 'scripts', 'ci', 'failure-digest.mjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'usher-digest-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function digestOf(text: string): { status: number | null; out: string } {
  const file = join(dir, `phase-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(file, text);
  const r = spawnSync(process.execPath, [SCRIPT, file], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout };
}

const NX_END = [
  '',
  ' NX   Running target test for 6 projects failed',
  '',
  'Failed tasks:',
  '',
  '- api:test',
  '',
  '  Run duration:      5m 55s',
];

test('names the failed task, the failing suite and the failing test from jest’s summary, with colours removed', () => {
  const log = [
    '\u001b[1mapi:\u001b[22m > node jest.js',
    'api: \u001b[7m\u001b[1m\u001b[32m PASS \u001b[39m\u001b[22m\u001b[27m api tests/a.test.ts',
    'api: \u001b[7m\u001b[1m\u001b[31m FAIL \u001b[39m\u001b[22m\u001b[27m api tests/users/b.test.ts (12 s)',
    'api:   ● users › deletes the account',
    'api:     expect(received).toBe(expected)',
    ...Array.from({ length: 500 }, (_, i) => `api:  PASS api tests/filler-${i}.test.ts`),
    'api: Summary of all failing tests',
    'api:  FAIL  api tests/users/b.test.ts (12 s)',
    'api:   ● users › deletes the account',
    'api:     Expected: 204',
    'api:     Received: 500',
    'api: Test Suites: 1 failed, 103 passed, 104 total',
    ...Array.from({ length: 300 }, (_, i) => `web:  PASS web src/x-${i}.spec.ts`),
    ...NX_END,
  ].join('\n');
  const { status, out } = digestOf(log);
  expect(status).toBe(0);
  expect(out).not.toContain('\u001b[');
  expect(out).toMatch(/--- failed tasks\napi:test\n/);
  expect(out).toContain('FAIL api tests/users/b.test.ts');
  expect(out).toMatch(/--- jest summary[\s\S]*● users › deletes the account[\s\S]*Received: 500/);
  // The summary ends before jest's counts; no passing suite is repeated.
  expect(out).not.toContain('filler-');
  expect(out).not.toContain('web:');
  expect(out.split('\n').length).toBeLessThan(120);
});

test('a task that died before jest summarised: its last lines and the crash line say why', () => {
  const log = [
    'api: > node jest.js',
    'api:  PASS api tests/a.test.ts',
    'api: <--- Last few GCs --->',
    'api: FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
    'api: Aborted (core dumped)',
    'bot:  PASS bot tests/http.test.ts',
    ...NX_END,
  ].join('\n');
  const { out } = digestOf(log);
  expect(out).toMatch(/--- crash lines\n.*JavaScript heap out of memory/);
  const v8 = digestOf(
    [
      'api:  PASS api tests/scripts/gen-secrets.test.ts',
      'api: # Check failed: jit_page_->allocations_.erase(addr) == 1.',
      'api: Trace/breakpoint trap',
      ...NX_END,
    ].join('\n'),
  ).out;
  expect(v8).toMatch(/--- crash lines\n.*Check failed: jit_page_.*\n.*Trace\/breakpoint trap/);
  expect(out).toMatch(/--- last lines of api:test\n[\s\S]*Aborted \(core dumped\)/);
  expect(out).not.toContain('bot tests/http.test.ts');
});

test('jest cut short: each ● block’s first lines stand in for the summary', () => {
  const log = [
    'bot:  FAIL bot tests/polling.test.ts',
    'bot:   ● polling › takes over a stale lease',
    'bot:     thrown: "Exceeded timeout of 30000 ms for a test."',
    'bot:   ● Console',
    ...NX_END.map((l) => l.replace('api:test', 'bot:test')),
  ].join('\n');
  const { out } = digestOf(log);
  expect(out).toMatch(
    /--- failing tests\nbot: {3}● polling › takes over a stale lease\nbot: {5}thrown/,
  );
  expect(out).not.toContain('--- jest summary');
});

test('output that names no failure (a shell step): its last non-empty lines', () => {
  const log = ['step one', '', 'curl: (7) Failed to connect to 127.0.0.1 port 4000', ''].join('\n');
  const { out } = digestOf(log);
  expect(out).toBe(
    '--- last lines\nstep one\ncurl: (7) Failed to connect to 127.0.0.1 port 4000\n',
  );
});

test('without a file it says how to call it and exits 2', () => {
  const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('usage');
});
