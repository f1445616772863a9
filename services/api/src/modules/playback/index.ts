// Public surface of the playback module (issue 33): the plays copy, its `playback_sync` job, and
// the source the media module's playback pages read (the copy, or the plugin before its first
// pass). app.ts and the media module import from here.
export {
  playbackJobs,
  pluginBatchSql,
  PLAYBACK_SYNC_JOB,
  PLAYS_RETENTION_DAYS,
  syncPlays,
} from './sync.js';
export { playSource, recordsOf, type PlayFilter, type PlaySource } from './source.js';
export { playbackDateReader, playsOf, type Play } from './plays.js';
