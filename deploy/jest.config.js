import preset from '../jest.preset.js';

export default {
  ...preset,
  displayName: 'deploy',
  // Only the relative-import mapping: @usher/testkit (describeWhen, eventually) resolves through
  // node_modules to its sources.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // The container-equivalent smoke assembles, installs and boots the API.
  testTimeout: 180_000,
};
