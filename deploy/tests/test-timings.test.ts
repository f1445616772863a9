// The slowest-suites report `npm test` and CI print (scripts/test/timings-reporter.cjs): from
// jest's own results, sorted, 15 at most, one line per project and the total count of tests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

interface Figures {
  project: string;
  wallSeconds: number;
  totals: { suites: number; passed: number; failed: number; skipped: number };
  suites: { path: string; seconds: number }[];
}
type ReporterClass = (new (globalConfig: { rootDir: string }) => {
  onRunComplete(contexts: Set<unknown>, aggregated: unknown): void;
}) & { formatReport(projects: Figures[], slowest?: number): string[] };
const Reporter = require(join(ROOT, 'scripts/test/timings-reporter.cjs')) as ReporterClass;

/** jest's AggregatedResult, as much of it as the reporter reads. */
function aggregated(rootDir: string, seconds: number[]) {
  return {
    startTime: Date.now() - 5_000,
    numTotalTestSuites: seconds.length,
    numPassedTests: seconds.length * 3,
    numFailedTests: 1,
    numPendingTests: 2,
    numTodoTests: 0,
    testResults: seconds.map((s, i) => ({
      testFilePath: join(rootDir, 'tests', `suite-${i}.test.ts`),
      perfStats: { start: 1_000, end: 1_000 + s * 1000 },
      numPassingTests: 3,
      numFailingTests: i === 0 ? 1 : 0,
      numPendingTests: i === 0 ? 2 : 0,
      numTodoTests: 0,
    })),
  };
}

describe('the slowest-suites report', () => {
  let dir: string;
  const saved = process.env.USHER_TEST_TIMINGS_DIR;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'usher-timings-test-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.USHER_TEST_TIMINGS_DIR;
    else process.env.USHER_TEST_TIMINGS_DIR = saved;
  });

  it('should write each project its suites with seconds under npm test', () => {
    process.env.USHER_TEST_TIMINGS_DIR = dir;
    const rootDir = '/repo/services/api';
    const contexts = new Set([{ config: { rootDir, displayName: { name: 'api' } } }]);
    new Reporter({ rootDir }).onRunComplete(contexts, aggregated(rootDir, [2.5, 40, 0.25]));

    const written = JSON.parse(readFileSync(join(dir, 'api.json'), 'utf8')) as Figures;
    expect(written.project).toBe('api');
    expect(written.totals).toEqual({ suites: 3, passed: 9, failed: 1, skipped: 2 });
    expect(written.suites.map((s) => [s.path, s.seconds])).toEqual([
      ['tests/suite-0.test.ts', 2.5],
      ['tests/suite-1.test.ts', 40],
      ['tests/suite-2.test.ts', 0.25],
    ]);
    expect(written.wallSeconds).toBeGreaterThanOrEqual(5);
  });

  it('should list the 15 slowest suites of all projects, slowest first, and count every test', () => {
    const project = (name: string, seconds: number[], passed: number): Figures => ({
      project: name,
      wallSeconds: 100,
      totals: { suites: seconds.length, passed, failed: 0, skipped: 1 },
      suites: seconds.map((s, i) => ({ path: `tests/${name}-${i}.test.ts`, seconds: s })),
    });
    const lines = Reporter.formatReport([
      project(
        'api',
        Array.from({ length: 12 }, (_, i) => i + 1),
        900,
      ),
      project('web', [30.04, 0.5, 0.2, 12.5, 7], 400),
    ]);

    expect(lines[0]).toBe('Slowest 15 of 17 suites:');
    const listed = lines.slice(1, 16).map((l) => l.trim().split(/\s+/));
    expect(listed.map(([seconds, , project, path]) => [seconds, project, path])).toEqual([
      ['30.0', 'web', 'tests/web-0.test.ts'],
      ['12.5', 'web', 'tests/web-3.test.ts'],
      ['12.0', 'api', 'tests/api-11.test.ts'],
      ['11.0', 'api', 'tests/api-10.test.ts'],
      ['10.0', 'api', 'tests/api-9.test.ts'],
      ['9.0', 'api', 'tests/api-8.test.ts'],
      ['8.0', 'api', 'tests/api-7.test.ts'],
      ['7.0', 'api', 'tests/api-6.test.ts'],
      ['7.0', 'web', 'tests/web-4.test.ts'],
      ['6.0', 'api', 'tests/api-5.test.ts'],
      ['5.0', 'api', 'tests/api-4.test.ts'],
      ['4.0', 'api', 'tests/api-3.test.ts'],
      ['3.0', 'api', 'tests/api-2.test.ts'],
      ['2.0', 'api', 'tests/api-1.test.ts'],
      ['1.0', 'api', 'tests/api-0.test.ts'],
    ]);
    expect(lines.slice(16)).toEqual([
      '  api: 12 suites, 900 passed, 0 failed, 1 skipped in 100 s',
      '  web: 5 suites, 400 passed, 0 failed, 1 skipped in 100 s',
      'Tests: 1300 passed, 0 failed, 2 skipped in 17 suites',
    ]);
  });

  it('should print a lone project its own report when not under npm test', () => {
    delete process.env.USHER_TEST_TIMINGS_DIR;
    const rootDir = '/repo/services/bot';
    const printed: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => printed.push(chunk) > 0) as typeof write;
    try {
      new Reporter({ rootDir }).onRunComplete(
        new Set([{ config: { rootDir, displayName: { name: 'bot' } } }]),
        aggregated(rootDir, [1, 3]),
      );
    } finally {
      process.stdout.write = write;
    }
    const text = printed.join('');
    expect(text).toContain('Slowest 2 of 2 suites:');
    expect(text.indexOf('tests/suite-1.test.ts')).toBeLessThan(
      text.indexOf('tests/suite-0.test.ts'),
    );
    expect(text).toContain('Tests: 6 passed, 1 failed, 2 skipped in 2 suites');
  });
});
