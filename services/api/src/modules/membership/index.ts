// Public surface of the membership module: the rules of a membership (expiry, media state,
// renewal), keeping the media account in step with it, and its background jobs. Other modules
// and app.ts import from here, never from the files behind it.
export {
  FIRST_RETRY_MS,
  syncMediaAccess,
  type MediaAccessWriter,
  type RetryOrigin,
} from './access-sync.js';
export { membershipJobs } from './jobs.js';
export {
  assertRenewable,
  extendedEnd,
  lockForRenewal,
  writeExtension,
  type Extension,
} from './renewal.js';
export { isExpired, mediaState } from './state.js';
