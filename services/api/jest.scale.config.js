import preset from '../../jest.preset.js';

// `npm run bench:scale` (bench/scale.mjs): figures only, no speed asserted (issue 33).
export default {
  ...preset,
  displayName: 'api-scale',
  testMatch: ['<rootDir>/bench/scale.bench.test.ts'],
  testTimeout: 7_200_000,
};
