import { HEAP_GROWING_PERCENT, heapFlag } from '../../src/runtime/heap.js';

describe('heapFlag', () => {
  it('sets the growing percent when the operator chose none', () => {
    expect(heapFlag(['--enable-source-maps'], '--max-old-space-size=512')).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
    expect(heapFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it("leaves the operator's own choice, on the command line or in NODE_OPTIONS, in either spelling", () => {
    expect(heapFlag(['--heap-growing-percent=80'])).toBeNull();
    expect(heapFlag([], '--trace-gc --heap_growing_percent=50')).toBeNull();
  });
});
