import preset from '../../jest.preset.js';

// Benchmarks print figures; they assert nothing about speed (timed tests are flaky on shared CI).
export default {
  ...preset,
  displayName: 'api-bench',
  testMatch: ['<rootDir>/bench/**/*.bench.test.ts'],
  testTimeout: 1_800_000,
};
