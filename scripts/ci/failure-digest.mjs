#!/usr/bin/env node
// What failed in a CI phase's output, short enough to be read as the last lines of the run: a CI
// report may keep only the end of the output, and the failing task's own lines are often far above
// it (nx streams every project's test output in turn). `.ci/run` prints this when a phase fails.
//
//   node scripts/ci/failure-digest.mjs PHASE.log
//
// It prints nx's failed tasks; every jest `FAIL` line; jest's "Summary of all failing tests"
// (or, without one, each `●` block's first lines); crash lines (out of memory, a killed worker,
// an unhandled error); and the last lines of each failed task's own output, where a task that
// died before jest could summarise says why.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// eslint-disable-next-line no-control-regex -- ANSI colour sequences are control characters
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const CRASH =
  /heap out of memory|Fatal error|Check failed|Trace\/breakpoint trap|Segmentation fault|core dumped|Killed|SIGKILL|SIGSEGV|child process exceptions|failed to exit gracefully|Unhandled(?: promise)? rejection|uncaught exception|ENOSPC|EADDRINUSE|ECONNREFUSED|Cannot find module|ERR_MODULE_NOT_FOUND|SyntaxError/i;

/** nx's stream mode prefixes each line with `project: `. */
const PROJECT_PREFIX = /^([\w.-]+):\s/;
/** The line's project, or `null` where a line has none. */
function projectOf(line) {
  return PROJECT_PREFIX.exec(line)?.[1] ?? null;
}
/** The line without its project prefix. */
const strip = (line) => line.replace(PROJECT_PREFIX, '');
/** A jest `FAIL <suite>` line, prefixed or not. */
const isFailLine = (line) => /^\s*FAIL\s/.test(strip(line));

/**
 * @param {string} text the phase's whole output
 * @param {{ blockLines?: number, tailLines?: number, maxLines?: number }} [options]
 * @returns {string[]} the digest's lines (empty when nothing in the output names a failure)
 */
export function digest(text, { blockLines = 12, tailLines = 40, maxLines = 250 } = {}) {
  const lines = text.replace(ANSI, '').split(/\r?\n/);
  const out = [];
  const section = (title, body) => {
    if (body.length > 0) out.push(`--- ${title}`, ...body);
  };

  // nx: "Failed tasks:" then "- api:test" lines.
  const failedTasks = [];
  const at = lines.findIndex((l) => /^\s*Failed tasks:\s*$/.test(l));
  if (at >= 0) {
    for (const l of lines.slice(at + 1)) {
      const m = /^\s*-\s+([\w.-]+):([\w:-]+)\s*$/.exec(l);
      if (m) failedTasks.push({ project: m[1], target: m[2] });
      else if (l.trim() !== '' && failedTasks.length > 0) break;
    }
  }
  section(
    'failed tasks',
    failedTasks.map((t) => `${t.project}:${t.target}`),
  );

  section('failing suites', [
    ...new Set(lines.filter(isFailLine).map((l) => strip(l).trim().replace(/\s+/g, ' '))),
  ]);

  // jest's closing summary; without one (a run cut short), the first lines of each ● block.
  const summaryAt = lines.findIndex((l) => /Summary of all failing tests/.test(l));
  if (summaryAt >= 0) {
    const end = lines.findIndex((l, i) => i > summaryAt && /^\s*Test Suites:/.test(strip(l)));
    section('jest summary', lines.slice(summaryAt + 1, end > 0 ? end : undefined).slice(0, 120));
  } else {
    const blocks = [];
    lines.forEach((l, i) => {
      if (/^\s*●\s/.test(strip(l)) && !/Console$/.test(l.trim())) {
        blocks.push(...lines.slice(i, i + blockLines), '');
      }
    });
    section('failing tests', blocks.slice(0, 120));
  }

  section(
    'crash lines',
    [...new Set(lines.filter((l) => CRASH.test(l)).map((l) => l.trim()))].slice(0, 30),
  );

  // A task whose output names no failing suite died before jest could say which: its last lines.
  for (const task of failedTasks) {
    const own = lines.filter((l) => projectOf(l) === task.project);
    if (own.some(isFailLine)) continue;
    section(`last lines of ${task.project}:${task.target}`, own.slice(-tailLines));
  }
  if (failedTasks.length === 0 && out.length === 0) {
    section('last lines', lines.filter((l) => l.trim() !== '').slice(-tailLines));
  }
  return out.length > maxLines
    ? [...out.slice(0, maxLines), `… ${out.length - maxLines} more lines`]
    : out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: failure-digest.mjs PHASE.log');
    process.exit(2);
  }
  for (const line of digest(readFileSync(file, 'utf8'))) console.log(line);
}
