import { type Signal, computed, inject, resource } from '@angular/core';
import { ErrorTexts, type ErrorText } from './error-text';

/** A read the page shows: its value, whether it is loading, its failure as text, Retry. */
export interface ApiResource<T> {
  /** The last value; kept while it reloads, null before the first one and after a failure. */
  readonly value: Signal<T | null>;
  readonly loading: Signal<boolean>;
  readonly error: Signal<ErrorText | null>;
  /** What the load threw (an `ApiError` for an API refusal), for pages that act on its code. */
  readonly failure: Signal<unknown>;
  /** Loads again with the same params (Retry, or after an action changed the data). */
  reload(): void;
}

/**
 * Whether two params are the same request: equal values, or flat objects with equal fields. A
 * params object rebuilt from unchanged inputs then loads nothing.
 */
export function sameParams(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) =>
      Object.is((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

/**
 * Angular's `resource` for an API read (60-web.md §1 "Page state conventions"): it loads when
 * `params` changes and turns a failure into the translated message and reference. `params`
 * returning undefined means "nothing to load" (a hidden tab, say). `load` gets the read's abort
 * signal: passed on with `abortWith(signal)`, a request superseded by newer params, a reload or
 * the page's end is cancelled rather than left to run. Mutations stay plain calls on the
 * feature's API service.
 */
export function apiResource<P, T>(options: {
  params: () => P | undefined;
  load: (params: P, abort: AbortSignal) => Promise<T>;
}): ApiResource<T> {
  const errors = inject(ErrorTexts);
  const ref = resource({
    params: computed(options.params, { equal: sameParams }),
    loader: ({ params, abortSignal }) => options.load(params, abortSignal),
  });
  return {
    value: computed(() => (ref.hasValue() ? ref.value() : null)),
    loading: ref.isLoading,
    error: computed(() => {
      const error = ref.error();
      return error ? errors.describe(error) : null;
    }),
    failure: computed(() => ref.error() ?? null),
    reload: () => void ref.reload(),
  };
}
