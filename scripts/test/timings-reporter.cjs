// A jest reporter for every project (listed after 'default' in jest.preset.js and web's config):
// the suites' own durations, from jest's results, so the next cut of the test time is chosen
// from data (docs/development.md, "Test time").
//
// - Under `npm test` (scripts/test.mjs sets USHER_TEST_TIMINGS_DIR) it writes this project's
//   results to `<dir>/<project>.json`; the wrapper prints one report over every project.
// - Run on its own (`npx nx run api:test`, CI's PGlite pass) it prints this project's slowest
//   suites itself, when the run had more than one.
'use strict';
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

/** How many suites the report lists. */
const SLOWEST = 15;

/** One suite's figures: path relative to the project, seconds, test counts. */
function suiteFigures(rootDir, result) {
  const { start, end } = result.perfStats ?? {};
  return {
    path: relative(rootDir, result.testFilePath),
    seconds: start && end ? (end - start) / 1000 : 0,
    passed: result.numPassingTests,
    failed: result.numFailingTests,
    skipped: result.numPendingTests + result.numTodoTests,
    failedToRun: Boolean(result.testExecError),
  };
}

/** The report's lines: the slowest suites, then one line of totals. Shared with scripts/test.mjs. */
function formatReport(projects, slowest = SLOWEST) {
  const suites = projects.flatMap((p) => p.suites.map((s) => ({ ...s, project: p.project })));
  suites.sort((a, b) => b.seconds - a.seconds);
  const lines = [`Slowest ${Math.min(slowest, suites.length)} of ${suites.length} suites:`];
  for (const s of suites.slice(0, slowest)) {
    lines.push(`  ${s.seconds.toFixed(1).padStart(7)} s  ${s.project}  ${s.path}`);
  }
  const sum = (key) => projects.reduce((n, p) => n + p.totals[key], 0);
  for (const p of projects) {
    lines.push(
      `  ${p.project}: ${p.totals.suites} suites, ${p.totals.passed} passed, ${p.totals.failed} failed, ` +
        `${p.totals.skipped} skipped in ${p.wallSeconds.toFixed(0)} s`,
    );
  }
  lines.push(
    `Tests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped ` +
      `in ${sum('suites')} suites`,
  );
  return lines;
}

class TimingsReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
  }

  onRunComplete(contexts, aggregated) {
    const config = [...contexts][0]?.config;
    const rootDir = config?.rootDir ?? this.globalConfig.rootDir;
    const project = config?.displayName?.name ?? relative(process.cwd(), rootDir) ?? 'tests';
    const suites = aggregated.testResults.map((r) => suiteFigures(rootDir, r));
    const figures = {
      project,
      wallSeconds: (Date.now() - aggregated.startTime) / 1000,
      totals: {
        suites: aggregated.numTotalTestSuites,
        passed: aggregated.numPassedTests,
        failed: aggregated.numFailedTests,
        skipped: aggregated.numPendingTests + aggregated.numTodoTests,
      },
      suites,
    };
    const dir = process.env.USHER_TEST_TIMINGS_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${project}.json`), JSON.stringify(figures));
    } else if (suites.length > 1) {
      process.stdout.write(`\n${formatReport([figures]).join('\n')}\n`);
    }
  }
}

module.exports = TimingsReporter;
module.exports.formatReport = formatReport;
