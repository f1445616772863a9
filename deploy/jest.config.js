import preset from '../jest.preset.js';

export default {
  ...preset,
  displayName: 'deploy',
  // Only the relative-import mapping: this project imports no workspace package.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // The container-equivalent smoke assembles, installs and boots the API.
  testTimeout: 180_000,
};
