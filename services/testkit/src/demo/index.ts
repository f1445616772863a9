// Public surface of the demo world: the deterministic builder, its loader for a media-server
// state, and the launcher's core that starts every fake with one world. The launcher itself
// (launch.ts) is reached through `npm run demo`, not through this index.
export { buildDemoWorld, DEFAULT_DEMO_SEED } from './world.js';
export type { DemoWorld, DemoWorldOptions } from './world.js';
export { DEMO_ADMIN_CHAT_ID, DEMO_GROUP_CHAT_ID, startDemoFakes } from './fakes.js';
export type { DemoFakes, DemoFakesOptions } from './fakes.js';
export { advanceSessions, loadWorldIntoMediaServer } from './media.js';
export type { LoadedWorld } from './media.js';
export { createRng } from './prng.js';
export type { Rng } from './prng.js';
export type { LibraryEpisode, LibraryMovie, LibraryShow, MediaFile } from './library.js';
export type { ClientKind, WorldDevice, WorldUser } from './people.js';
export type { WorldPlay } from './playback.js';
export type { WorldSession } from './live.js';
