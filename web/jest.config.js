// Unit specs: jest-preset-angular (CommonJS transform, zoneless env). The browser e2e has its own
// config in e2e/ and never runs here, so `npm test` stays fast and needs no browser.
import presets from 'jest-preset-angular/presets/index.js';
import { TEST_WORKERS, TIMINGS_REPORTER } from '../jest.preset.js';

const preset = presets.createCjsPreset({ tsconfig: '<rootDir>/tsconfig.spec.json' });

/** @type {import('jest').Config} */
export default {
  ...preset,
  displayName: 'web',
  reporters: ['default', TIMINGS_REPORTER],
  maxWorkers: TEST_WORKERS,
  testEnvironment: 'jest-preset-angular/environments/jest-jsdom-env',
  setupFilesAfterEnv: ['<rootDir>/src/test-setup.ts'],
  // Angular ships .mjs; @jsverse/utils, intl-messageformat (with its @formatjs parts) and
  // cronstrue's locales ship ESM as .js — all need transforming.
  transformIgnorePatterns: [
    'node_modules/(?!(.*\\.mjs$|@jsverse/utils/|intl-messageformat/|@formatjs/))',
  ],
  moduleNameMapper: {
    '^@usher/contracts$': '<rootDir>/../services/contracts/src/index.ts',
    '^@usher/contracts/values$': '<rootDir>/../services/contracts/src/values.ts',
    // contracts import siblings as `./x.js` (nodenext); resolve them to the .ts source.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
