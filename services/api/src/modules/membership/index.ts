// Public surface of the membership module: the rules of a membership (expiry, media state,
// renewal), the member's media-server account (provisioning, keeping its access in step with
// the membership) and the background jobs. Other modules and app.ts import from here, never
// from the files behind it.
export {
  declareWrite,
  desiredDisabled,
  MembershipKeptChanging,
  syncMediaAccess,
  withMediaLock,
  writeUntilSettled,
  type MediaAccessWriter,
  type RetryOrigin,
} from './access-sync.js';
export { membershipJobs } from './jobs.js';
export {
  applyMemberPolicy,
  memberPolicyWriter,
  POLICY_APPLY_JOB,
  runPolicyApply,
  type PolicyApplyOutcome,
} from './policy-apply.js';
export {
  assertUsernameAvailable,
  compensate,
  mediaServerFailure,
  provisionMediaUser,
  readMemberPolicy,
  usernameTaken,
  type CleanupOutcome,
  type ProvisionContext,
  type ProvisionedMediaUser,
  type ProvisionInput,
} from './provision.js';
export {
  assertRenewable,
  extendedEnd,
  lockForRenewal,
  writeExtension,
  type Extension,
} from './renewal.js';
export {
  FIRST_RETRY_MS,
  isUsernameTakenLocally,
  queueAccessRetry,
  queuePolicyRetry,
} from './queries.js';
export { isExpired, mediaState } from './state.js';
export { endSharingSuspensions } from './suspensions.js';
