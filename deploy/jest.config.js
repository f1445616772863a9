import preset from '../jest.preset.js';

export default {
  ...preset,
  displayName: 'deploy',
  // Only the relative-import mapping: @usher/testkit (describeWhen, eventually) resolves through
  // node_modules to its sources.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // The container-equivalent smoke assembles, installs and boots the API.
  testTimeout: 180_000,
  // One suite at a time: the image suites build the same outputs (web/dist, the API bundle in
  // its default and production configurations) through nested nx runs, and two at once would
  // overwrite what the other is copying. `npm test` runs this project beside the API's suites.
  maxWorkers: 1,
};
