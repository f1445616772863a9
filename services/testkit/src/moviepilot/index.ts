export {
  startFakeMoviePilot,
  type FakeMoviePilot,
  type FakeMoviePilotOptions,
  type MoviePilotMode,
} from './server.js';
export { MoviePilotState, type DownloadRecord, type ServarrItem } from './state.js';
export type { MediaTypeCn, Subscription, TorrentContext } from './catalog.js';
