// The media-server flavours the API's tests run against, defined once.
//
// Who runs on which flavour:
// - The adapter and contract suites (tests/integrations/media-server) cover every behaviour the
//   fake distinguishes, on both products (they keep their own `Mode` list, with Jellyfin 10.11).
// - The end-to-end journey (tests/journey) runs on both flavours, always: `FLAVOURS`.
// - Every other ("domain") suite runs on ONE flavour, chosen for the quirks it exercises most —
//   about half the suites on Emby, half on Jellyfin, so the domain code keeps meeting both
//   adapters: `describe.each(domainFlavours('emby'))(`… on %s`, …)`. A flavour-specific detail a
//   domain suite would lose on the other flavour belongs in the adapter suites instead.
//
// USHER_TEST_ALL_FLAVOURS=1 runs every domain suite on both flavours again — for whoever changes
// an adapter, the fake, or code that branches on the server kind:
//
//   USHER_TEST_ALL_FLAVOURS=1 npm test -w @usher/api            (every API suite)
//   USHER_TEST_ALL_FLAVOURS=1 npm test -w @usher/api -- tests/users   (some of them)
//
// The title of a domain suite keeps its `%s`, so a run names the flavour either way.

/** Emby and the current Jellyfin (12). */
export const FLAVOURS = ['emby', 'jellyfin'] as const;
export type Flavour = (typeof FLAVOURS)[number];

/** Whether the environment asks for every domain suite on both flavours. */
export const ALL_FLAVOURS = process.env.USHER_TEST_ALL_FLAVOURS === '1';

/**
 * The flavours a domain suite runs on: its own `flavour`, or both when
 * `USHER_TEST_ALL_FLAVOURS=1` is set.
 */
export function domainFlavours(flavour: Flavour): readonly Flavour[] {
  return ALL_FLAVOURS ? FLAVOURS : [flavour];
}
