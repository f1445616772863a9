// Shared jest base: ESM TypeScript through SWC (fast, no type checking — `typecheck` does that).
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Prints (or, under `npm test`, collects) the slowest suites: scripts/test/timings-reporter.cjs. */
export const TIMINGS_REPORTER = fileURLToPath(
  new URL('./scripts/test/timings-reporter.cjs', import.meta.url),
);

/**
 * Jest workers per project: at least two even on two cores (jest's default there is one, in
 * band). Most suites wait on child processes, sockets and the database more than they compute,
 * and `npm test` runs two projects at a time, so the cores stay busy (docs/development.md).
 */
export const TEST_WORKERS =
  Number(process.env.USHER_TEST_WORKERS) || Math.max(2, availableParallelism());

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  reporters: ['default', TIMINGS_REPORTER],
  maxWorkers: TEST_WORKERS,
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
        module: { type: 'es6' },
      },
    ],
  },
  moduleNameMapper: {
    // Sources import siblings as `./x.js` (nodenext); jest must find the `.ts` file.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^@usher/contracts$': '<rootDir>/../contracts/src/index.ts',
    '^@usher/contracts/values$': '<rootDir>/../contracts/src/values.ts',
    '^@usher/contracts/time$': '<rootDir>/../contracts/src/time.ts',
    '^@usher/contracts/retry$': '<rootDir>/../contracts/src/retry.ts',
    '^@usher/testkit$': '<rootDir>/../testkit/src/index.ts',
  },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/tests/**/*.test.ts'],
  testTimeout: 30000,
};
