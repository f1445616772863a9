// UserPolicy defaults and the "POST replaces the whole object" rule of both servers.
import type { Flavour, Policy } from './types.js';

// Field names and defaults follow each server's UserPolicy constructor (the OpenAPI schemas
// `UserPolicy` in shared/data list the same fields). Missing fields in a POST fall back to these
// defaults, not to the stored values: that is what "replaces the whole policy" means on the wire.
const EMBY_DEFAULTS: Policy = {
  IsAdministrator: false,
  IsHidden: true,
  IsHiddenRemotely: true,
  IsHiddenFromUnusedDevices: true,
  IsDisabled: false,
  LockedOutDate: 0,
  AllowTagOrRating: false,
  BlockedTags: [],
  IsTagBlockingModeInclusive: false,
  IncludeTags: [],
  EnableUserPreferenceAccess: true,
  AccessSchedules: [],
  BlockUnratedItems: [],
  EnableRemoteControlOfOtherUsers: false,
  EnableSharedDeviceControl: true,
  EnableRemoteAccess: true,
  EnableLiveTvManagement: true,
  EnableLiveTvAccess: true,
  EnableMediaPlayback: true,
  EnableAudioPlaybackTranscoding: true,
  EnableVideoPlaybackTranscoding: true,
  EnablePlaybackRemuxing: true,
  EnableContentDeletion: false,
  RestrictedFeatures: [],
  EnableContentDeletionFromFolders: [],
  EnableContentDownloading: true,
  EnableSubtitleDownloading: false,
  EnableSubtitleManagement: false,
  EnableSyncTranscoding: true,
  EnableMediaConversion: true,
  EnabledChannels: [],
  EnableAllChannels: true,
  EnabledFolders: [],
  EnableAllFolders: true,
  InvalidLoginAttemptCount: 0,
  EnablePublicSharing: true,
  BlockedMediaFolders: [],
  RemoteClientBitrateLimit: 0,
  AuthenticationProviderId: 'Emby.Server.Implementations.Library.DefaultAuthenticationProvider',
  ExcludedSubFolders: [],
  SimultaneousStreamLimit: 0,
  EnabledDevices: [],
  EnableAllDevices: true,
  AllowCameraUpload: true,
  AllowSharingPersonalItems: false,
};

const JELLYFIN_DEFAULTS: Policy = {
  IsAdministrator: false,
  IsHidden: true,
  EnableCollectionManagement: false,
  EnableSubtitleManagement: false,
  EnableLyricManagement: false,
  IsDisabled: false,
  BlockedTags: [],
  AllowedTags: [],
  EnableUserPreferenceAccess: true,
  AccessSchedules: [],
  BlockUnratedItems: [],
  EnableRemoteControlOfOtherUsers: false,
  EnableSharedDeviceControl: true,
  EnableRemoteAccess: true,
  EnableLiveTvManagement: true,
  EnableLiveTvAccess: true,
  EnableMediaPlayback: true,
  EnableAudioPlaybackTranscoding: true,
  EnableVideoPlaybackTranscoding: true,
  EnablePlaybackRemuxing: true,
  ForceRemoteSourceTranscoding: false,
  EnableContentDeletion: false,
  EnableContentDeletionFromFolders: [],
  EnableContentDownloading: true,
  EnableSyncTranscoding: true,
  EnableMediaConversion: true,
  EnabledDevices: [],
  EnableAllDevices: true,
  EnabledChannels: [],
  EnableAllChannels: true,
  EnabledFolders: [],
  EnableAllFolders: true,
  InvalidLoginAttemptCount: 0,
  LoginAttemptsBeforeLockout: -1,
  MaxActiveSessions: 0,
  EnablePublicSharing: true,
  BlockedMediaFolders: [],
  BlockedChannels: [],
  RemoteClientBitrateLimit: 0,
  AuthenticationProviderId: 'Jellyfin.Server.Implementations.Users.DefaultAuthenticationProvider',
  PasswordResetProviderId: 'Jellyfin.Server.Implementations.Users.DefaultPasswordResetProvider',
  SyncPlayAccess: 'CreateAndJoinGroups',
};

export function defaultPolicy(flavour: Flavour): Policy {
  return structuredClone(flavour === 'emby' ? EMBY_DEFAULTS : JELLYFIN_DEFAULTS);
}

const GUID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Builds the stored policy from a POSTed one. Only known fields are kept, unknown ones are
 * dropped as the servers' deserialisers do. Emby silently drops `EnabledFolders` entries that are
 * not Guids (the numeric-id trap of §1.5); Jellyfin stores folder Guids in its 32-hex form.
 */
export function policyFromPost(flavour: Flavour, posted: Record<string, unknown>): Policy {
  const policy = defaultPolicy(flavour);
  for (const key of Object.keys(policy)) {
    const value = findCaseInsensitive(posted, key);
    if (value !== undefined && value !== null) policy[key] = value;
  }
  const folders = Array.isArray(policy['EnabledFolders']) ? policy['EnabledFolders'] : [];
  policy['EnabledFolders'] = folders
    .filter((f): f is string => typeof f === 'string' && GUID.test(f))
    .map((f) => f.replace(/-/g, '').toLowerCase());
  return policy;
}

/** Both servers bind JSON property names case-insensitively. */
export function findCaseInsensitive(obj: Record<string, unknown>, key: string): unknown {
  if (key in obj) return obj[key];
  const lower = key.toLowerCase();
  const hit = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return hit === undefined ? undefined : obj[hit];
}

/** Jellyfin's lockout threshold: -1 means 5 for administrators and 3 for everyone else. */
export function lockoutThreshold(policy: Policy): number {
  const configured = Number(policy['LoginAttemptsBeforeLockout'] ?? -1);
  if (configured !== -1) return configured;
  return policy['IsAdministrator'] === true ? 5 : 3;
}
