export {
  startFakeMoviePilot,
  type FakeMoviePilot,
  type FakeMoviePilotOptions,
  type MoviePilotMode,
} from './server.js';
export { MoviePilotState, type DownloadRecord, type ServarrItem } from './state.js';
export { torrentContext } from './catalog.js';
export type { MediaTypeCn, Subscription, TorrentContext, TorrentSeed } from './catalog.js';
