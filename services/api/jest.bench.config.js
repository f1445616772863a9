import preset from '../../jest.preset.js';

// Benchmarks print figures; they assert nothing about speed (timed tests are flaky on shared CI).
export default {
  ...preset,
  displayName: 'api-bench',
  testMatch: ['<rootDir>/bench/**/*.bench.test.ts'],
  // The scale bench has its own command (`npm run bench:scale`, jest.scale.config.js).
  testPathIgnorePatterns: ['/node_modules/', 'scale\\.bench\\.test\\.ts$'],
  testTimeout: 1_800_000,
};
