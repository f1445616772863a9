/**
 * Version and commit of this build. `scripts/build.mjs` injects `USHER_BUILD` through the
 * builder's `define`; dev servers and unit tests have no define, hence the fallback.
 */
declare const USHER_BUILD: { version: string; commit: string } | undefined;

export const BUILD_INFO: { version: string; commit: string } =
  typeof USHER_BUILD === 'undefined' ? { version: 'dev', commit: 'local' } : USHER_BUILD;
