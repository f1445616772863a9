// Helpers for the test files themselves, beside the fakes: polling instead of fixed sleeps, and
// suites that need an outside tool.
export { eventually } from './eventually.js';
export type { EventuallyOptions } from './eventually.js';
export { describeWhen, toolsRequired } from './describe-when.js';
