// PolicyPatch ↔ server policy fields (50-integrations.md §1.5). Both servers replace the whole
// policy on POST (§8 risk 5), so the update is read-modify-write, then read back and compared:
// that catches Emby silently dropping numeric library ids (risk 6) and Jellyfin lockouts.
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../errors.js';
import { noSuchUser } from './client.js';
import type { MediaServerKind, MediaUser, PolicyPatch } from './port.js';
import { normaliseId, PRODUCT_NAMES } from './port.js';

type Policy = Record<string, unknown>;

/** Jellyfin answers 400 without these (§1.4); its defaults fill a policy that lacks them. */
const JELLYFIN_PROVIDERS = {
  AuthenticationProviderId: 'Jellyfin.Server.Implementations.Users.DefaultAuthenticationProvider',
  PasswordResetProviderId: 'Jellyfin.Server.Implementations.Users.DefaultPasswordResetProvider',
};

/** Raised when the server accepted the POST but the policy read back differs from what was sent. */
export class PolicyNotAppliedError extends IntegrationError {
  readonly code = 'POLICY_NOT_APPLIED';

  constructor(
    message: string,
    /** Server field names whose read-back value differs. */
    readonly fields: string[],
  ) {
    super('media_server', 'update_policy', 'rejected', message);
    this.name = 'PolicyNotAppliedError';
  }

  /** 422 UPSTREAM_REJECTED, with the reason and the fields so the UI can say what failed. */
  override toAppError(): AppError {
    return new AppError('UPSTREAM_REJECTED', this.message, {
      details: { system: this.system, reason: this.code, fields: this.fields },
      cause: this,
    });
  }
}

/**
 * Raised instead of writing the policy of a media-server administrator: Usher never demotes or
 * hides the server's owners. A `rejected` failure like any other to the routes; the
 * `media_policy_apply` job and the retry worker tell it apart and skip the account.
 */
export class AdministratorPolicyRefused extends IntegrationError {
  constructor(name: string) {
    super(
      'media_server',
      'update_policy',
      'rejected',
      `"${name}" is a media-server administrator; Usher does not change administrator policies`,
    );
    this.name = 'AdministratorPolicyRefused';
  }
}

/** Server fields for a patch; always forces the managed-user rules (never admin, hidden, …). */
export function policyFields(kind: MediaServerKind, patch: PolicyPatch): Policy {
  const out: Policy = {
    IsAdministrator: false,
    EnableContentDeletion: false,
    IsHidden: true,
  };
  const set = (field: string, value: unknown) => {
    if (value !== undefined) out[field] = value;
  };
  set('IsDisabled', patch.disabled);
  set('EnableAllFolders', patch.allLibraries);
  set('EnabledFolders', patch.libraryIds?.map(normaliseId));
  if (patch.streamLimit !== undefined) {
    const limit = Math.max(0, Math.trunc(patch.streamLimit));
    // Different meanings (§8 risk 7): Emby counts streams, Jellyfin sessions at login.
    set(kind === 'emby' ? 'SimultaneousStreamLimit' : 'MaxActiveSessions', limit);
  }
  set('EnableContentDownloading', patch.allowDownloads);
  if (kind === 'emby') set('EnableSyncTranscoding', patch.allowDownloads);
  set('EnableVideoPlaybackTranscoding', patch.allowVideoTranscoding);
  set('EnableAudioPlaybackTranscoding', patch.allowAudioTranscoding);
  set('EnablePlaybackRemuxing', patch.allowRemux);
  set('EnableRemoteAccess', patch.allowRemoteAccess);
  return out;
}

/** The policy to POST: the current one with the patch applied (nothing else is dropped). */
export function mergePolicy(kind: MediaServerKind, current: Policy, patch: PolicyPatch): Policy {
  const next: Policy = { ...current, ...policyFields(kind, patch) };
  if (kind === 'jellyfin') {
    for (const [field, fallback] of Object.entries(JELLYFIN_PROVIDERS)) {
      if (typeof next[field] !== 'string' || next[field] === '') next[field] = fallback;
    }
  }
  return next;
}

const folderSet = (v: unknown): string[] =>
  Array.isArray(v)
    ? [
        ...new Set(
          v
            .filter((x): x is string => typeof x === 'string')
            .map((x) => normaliseId(x).toLowerCase()),
        ),
      ].sort()
    : [];

/** The §1.5 comparison: `IsDisabled`, `EnableAllFolders` and the set of `EnabledFolders`. */
export function policyMismatches(sent: Policy, stored: Policy): string[] {
  const out: string[] = [];
  for (const field of ['IsDisabled', 'EnableAllFolders']) {
    if ((sent[field] === true) !== (stored[field] === true)) out.push(field);
  }
  const a = folderSet(sent['EnabledFolders']);
  const b = folderSet(stored['EnabledFolders']);
  if (a.length !== b.length || a.some((id, i) => id !== b[i])) out.push('EnabledFolders');
  return out;
}

function mismatchMessage(kind: MediaServerKind, fields: string[], sent: Policy): string {
  const hints: string[] = [];
  if (fields.includes('EnabledFolders')) {
    const numeric = folderSet(sent['EnabledFolders']).some((id) => /^\d+$/.test(id));
    hints.push(
      kind === 'emby' && numeric
        ? 'Emby ignored the library access: it needs library Guids, not numeric ids'
        : 'the server did not keep the library access list',
    );
  }
  if (fields.includes('IsDisabled')) {
    hints.push(
      kind === 'jellyfin'
        ? 'the enabled/disabled state differs (Jellyfin disables accounts after failed logins)'
        : 'the enabled/disabled state differs',
    );
  }
  if (fields.includes('EnableAllFolders')) hints.push('the "all libraries" switch differs');
  return `${PRODUCT_NAMES[kind]} did not apply the member policy: ${hints.join('; ')}`;
}

/** What the policy update needs from an adapter. */
export interface PolicyWire {
  kind: MediaServerKind;
  getUser(userId: string): Promise<MediaUser | null>;
  postPolicy(userId: string, policy: Policy): Promise<void>;
}

/** Read, merge, POST the whole object, read back and compare (§1.5). */
export async function updatePolicyChecked(
  wire: PolicyWire,
  userId: string,
  patch: PolicyPatch,
): Promise<void> {
  const user = await wire.getUser(userId);
  if (!user) throw noSuchUser('update_policy');
  if (user.isAdministrator) {
    // Admin accounts are never written: Usher must not demote or hide the server's owners.
    throw new AdministratorPolicyRefused(user.name);
  }
  const sent = mergePolicy(wire.kind, user.policy, patch);
  await wire.postPolicy(user.id, sent);
  const after = await wire.getUser(user.id);
  if (!after) {
    throw new PolicyNotAppliedError('The media-server user disappeared during the update', []);
  }
  const fields = policyMismatches(sent, after.policy);
  if (fields.length > 0) {
    throw new PolicyNotAppliedError(mismatchMessage(wire.kind, fields, sent), fields);
  }
}

/** The `MEMBER_*` settings of 30-settings.md §4.2 as a patch (empty library list = all). */
export function memberPolicyPatch(template: {
  libraryIds: string[];
  streamLimit: number;
  allowDownloads: boolean;
  allowVideoTranscoding: boolean;
  allowAudioTranscoding: boolean;
  allowRemux: boolean;
  allowRemoteAccess: boolean;
}): PolicyPatch {
  const all = template.libraryIds.length === 0;
  return { ...template, allLibraries: all, libraryIds: all ? [] : template.libraryIds };
}
