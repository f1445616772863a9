// Public surface of the media-server fake (Emby and Jellyfin flavours).
export { startFakeMediaServer } from './server.js';
export { routeTable } from './router.js';
export { sessionDto } from './sessions.js';
export type { FakeMediaServer, FakeMediaServerOptions } from './server.js';
export { SEED_PASSWORDS, seedMediaLibrary } from './seed.js';
export type { SeedOptions, SeededLibrary, SeededSeries } from './seed.js';
export {
  addItem,
  addLibrary,
  addLiveSession,
  addUser,
  createMediaState,
  dashed,
  modeFor,
  parseGuid,
  setUserData,
} from './state.js';
export type { LiveSessionInput, MediaStateOptions, NewItemInput, NewUserInput } from './state.js';
export { defaultPolicy } from './policy.js';
export { pluginDate, PlaybackStore } from './playback-store.js';
export type { CustomQueryReply, PlaybackRow } from './playback-store.js';
export { POSTER_ORIGINAL, posterSize } from './images.js';
export {
  DEFAULT_JELLYFIN_TEMPLATE,
  embyItemAddedPayload,
  embyTestPayload,
  jellyfinItemAddedData,
  renderJellyfinTemplate,
} from './webhooks.js';
export type { WebhookDelivery, WebhookOptions } from './webhooks.js';
export type {
  CollectionType,
  FakeDevice,
  FakeItem,
  FakeLibrary,
  FakeSession,
  FakeUser,
  FaultRule,
  Flavour,
  HdrKind,
  MediaServerMode,
  MediaState,
  RequestLogEntry,
  SessionCommand,
  VideoSpec,
} from './types.js';
