import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'api',
  testPathIgnorePatterns: ['/node_modules/', '\\.bench\\.test\\.ts$'],
  // Suites run in parallel (the preset's workers): each makes its own database (a PGlite instance,
  // or a database on the TEST_DATABASE_URL server) and its own servers on free ports. A worker is
  // replaced once it holds more than 1 GB after a suite: PGlite's WebAssembly heaps and compiled
  // code add up in a long-lived worker (docs/development.md, "Test time").
  workerIdleMemoryLimit: '1GB',
};
