import preset from '../../jest.preset.js';

// `npm run test:reliability` (reliability/run.mjs): route matrix, fuzzing, races, faults,
// secrets and a bounded soak. Kept out of `npm test`; CI runs it right after.
export default {
  ...preset,
  displayName: 'api-reliability',
  testMatch: ['<rootDir>/reliability/**/*.reliability.test.ts'],
  testTimeout: 300000,
};
