// Browser e2e: real API on a throwaway PGlite database, the production web build, Debian's
// Chromium through playwright-core. Run by `nx run web:e2e` (scripts/e2e.mjs), never by `npm test`.
/** @type {import('jest').Config} */
export default {
  displayName: 'web-e2e',
  rootDir: '.',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'es6' } },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/**/*.e2e.ts'],
  testTimeout: 180_000,
};
