// Shared jest base: ESM TypeScript through SWC (fast, no type checking — `typecheck` does that).
import { fileURLToPath } from 'node:url';

/** Prints (or, under `npm test`, collects) the slowest suites: scripts/test/timings-reporter.cjs. */
export const TIMINGS_REPORTER = fileURLToPath(
  new URL('./scripts/test/timings-reporter.cjs', import.meta.url),
);

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  reporters: ['default', TIMINGS_REPORTER],
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
    '^@usher/testkit$': '<rootDir>/../testkit/src/index.ts',
  },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/tests/**/*.test.ts'],
  testTimeout: 30000,
};
