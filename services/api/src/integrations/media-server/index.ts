// Public surface of the media-server integration: the port, the factory and cache, the settings
// connection test, and the helpers other modules need (quality buckets, playback SQL text).
export type * from './port.js';
export { isGuid, normaliseId, usherDeviceId } from './port.js';
export { createMediaServer, MediaServerFactory, readMediaServerConfig } from './factory.js';
export type { MediaServerConfig, MediaServerDeps } from './factory.js';
export { testMediaServerConnection } from './probe.js';
export type { CheckStatus, CheckTarget, ConnectionCheck, ConnectionTestInput } from './probe.js';
export { AdministratorPolicyRefused, memberPolicyPatch, PolicyNotAppliedError } from './policy.js';
export { codecOf, hdrOf, resolutionOf, videoQuality } from './quality.js';
export type { HdrKind, Resolution, VideoCodec, VideoQuality } from './quality.js';
export {
  assertPlaybackSql,
  formatPlaybackBound,
  parsePlaybackDate,
  PLAYBACK_SHARED_COLUMNS,
  playbackMethodOf,
  sqlId,
  sqlLikeText,
} from './playback.js';
export type { PlaybackMethodKind } from './playback.js';
export {
  PLAYBACK_ITEM_TOTAL_COLUMNS,
  PLAYBACK_ROW_COLUMNS,
  PLAYBACK_ROWS_MAX,
  playbackClientsSql,
  playbackCountSql,
  playbackHourlySql,
  playbackItemTotalsSql,
  playbackRowsSql,
  playbackSummarySql,
  playbackTopTitlesSql,
  playbackUserPageSql,
} from './playback-sql.js';
export type { PlaybackFilter, PlaybackUserSort } from './playback-sql.js';
