import { availableParallelism } from 'node:os';
import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'api',
  testPathIgnorePatterns: ['/node_modules/', '\\.bench\\.test\\.ts$'],
  // Suites run in parallel: each makes its own database (a PGlite instance, or a database on the
  // TEST_DATABASE_URL server) and its own servers on free ports. At least two workers even on two
  // cores — many suites wait on child processes, timers and sockets — and a worker is replaced
  // once it holds more than 1 GB after a suite (PGlite's WebAssembly heaps and compiled code add
  // up in a long-lived worker). docs/development.md, "Test time".
  maxWorkers: Number(process.env.USHER_API_TEST_WORKERS) || Math.max(2, availableParallelism()),
  workerIdleMemoryLimit: '1GB',
};
