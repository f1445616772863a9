// How the API process tunes V8's heap (issue 33, docs/performance.md "expiry_check's peak").
import { setFlagsFromString } from 'node:v8';

/**
 * After each full collection V8 lets the old generation grow to up to 4 × what survived before it
 * collects again, and a long job (10 000 sequential access syncs) promotes ~1 MB/s of short-lived
 * call garbage: `expiry_check` peaked at 383 MB with ~35 MB live. At 30 % the next full
 * collection comes at 1.3 × the live heap: the run measured 278 → 252 MB peak at 1 000 members,
 * with full collections of ~80 ms every ~17 s instead of one per minute.
 */
export const HEAP_GROWING_PERCENT = 30;

const FLAG = 'heap-growing-percent';

/**
 * The flag to set, or null where the operator chose their own (`node --heap-growing-percent=…`
 * or `NODE_OPTIONS`): theirs wins.
 */
export function heapFlag(execArgv: readonly string[], nodeOptions = ''): string | null {
  const chosen = [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) =>
    arg.replace(/_/g, '-').startsWith(`--${FLAG}`),
  );
  return chosen ? null : `--${FLAG}=${HEAP_GROWING_PERCENT}`;
}

/** Applies `heapFlag` to this process (Node keeps V8's flags writable after start). */
export function tuneHeap(): void {
  const flag = heapFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) setFlagsFromString(flag);
}
