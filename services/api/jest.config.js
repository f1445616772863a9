import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'api',
  testPathIgnorePatterns: ['/node_modules/', '\\.bench\\.test\\.ts$'],
};
