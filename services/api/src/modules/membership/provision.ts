// Media-server side of creating a member (20-api.md §8.1 steps 4 and 6), shared by self-registration
// and admin user creation. The rule it enforces: a failed creation never leaves an account behind
// on either side. What Usher created on the media server is deleted again, and when even that
// delete fails, a `delete` row in the retry queue finishes the job later.
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../../integrations/errors.js';
import { memberPolicyPatch } from '../../integrations/media-server/policy.js';
import type { MediaServer, PolicyPatch } from '../../integrations/media-server/port.js';
import type { SettingsReader } from '../../integrations/common.js';
import type { ModuleContext } from '../context.js';
import { insertDeleteRetry, isUsernameTakenLocally } from './queries.js';

/** What the provisioning functions need from the module context. */
export type ProvisionContext = Pick<ModuleContext, 'db' | 'logger' | 'integrations'> & {
  settings: { store: SettingsReader };
};

export interface ProvisionInput {
  /** The Usher username; also the media-server user name. */
  username: string;
  /** Plain password, set on the media-server account; never logged. */
  password: string;
  /** `IsDisabled` to write: the member's desired state (expired, or switched off by an admin). */
  disabled: boolean;
}

export interface ProvisionedMediaUser {
  /** Normalised media-server user id (32 hex), to store in `users.media_user_id`. */
  mediaUserId: string;
  /** `IsDisabled` as written; store it in `users.media_disabled`. */
  disabled: boolean;
}

/** Outcome of a compensation: deleted now, or left to the retry queue. */
export type CleanupOutcome = 'deleted' | 'queued';

/** The `MEMBER_*` settings of 30-settings.md §4.2 as a policy patch. */
export async function readMemberPolicy(settings: SettingsReader): Promise<PolicyPatch> {
  return memberPolicyPatch({
    libraryIds: (await settings.get('MEMBER_LIBRARY_IDS')) ?? [],
    streamLimit: await settings.get('MEMBER_STREAM_LIMIT'),
    allowDownloads: await settings.get('MEMBER_ALLOW_DOWNLOADS'),
    allowVideoTranscoding: await settings.get('MEMBER_ALLOW_VIDEO_TRANSCODING'),
    allowAudioTranscoding: await settings.get('MEMBER_ALLOW_AUDIO_TRANSCODING'),
    allowRemux: await settings.get('MEMBER_ALLOW_REMUXING'),
    allowRemoteAccess: await settings.get('MEMBER_ALLOW_REMOTE_ACCESS'),
  });
}

/**
 * Maps a media-server failure to the reply the account routes promise (20-api.md §4, §8.1): 503
 * `NOT_CONFIGURED` when the server is not set up, 502 `UPSTREAM_AUTH_FAILED` when our key is
 * refused, 502 `UPSTREAM_UNAVAILABLE` for everything else (including a server that refused the
 * new user or the policy). The adapter's sanitised message is kept as the cause for the log; the
 * reply says what happened in words a member understands.
 */
export function mediaServerFailure(err: unknown, action: string): AppError {
  if (err instanceof AppError) return err;
  const details = { system: 'media_server' as const };
  if (!(err instanceof IntegrationError)) {
    return new AppError('INTERNAL_ERROR', 'Something went wrong on our side', { cause: err });
  }
  if (err.kind === 'not_configured') {
    return new AppError('NOT_CONFIGURED', 'The media server is not configured yet', {
      details,
      cause: err,
    });
  }
  const code = err.kind === 'auth' ? 'UPSTREAM_AUTH_FAILED' : 'UPSTREAM_UNAVAILABLE';
  return new AppError(code, `The media server could not ${action}; try again later`, {
    details,
    cause: err,
  });
}

/**
 * Creates the media-server account of a new member (§8.1 step 4): the user with its password
 * (the adapter does Emby's two calls and removes its own half-made user), then the member policy
 * template with `IsDisabled` = `input.disabled`. When any step fails, the user already created
 * is deleted again (or queued for deletion, see `compensate`) and the call throws the mapped
 * `AppError` (502/503, `details.system: "media_server"`).
 */
export async function provisionMediaUser(
  ctx: ProvisionContext,
  input: ProvisionInput,
): Promise<ProvisionedMediaUser> {
  let server: MediaServer;
  let policy: PolicyPatch;
  try {
    server = await ctx.integrations.mediaServer.get();
    policy = await readMemberPolicy(ctx.settings.store);
  } catch (err) {
    throw mediaServerFailure(err, 'create your media account');
  }
  let created: { id: string };
  try {
    created = await server.createUser(input.username, input.password);
  } catch (err) {
    // Both servers refuse a duplicate name (400): someone took it since the availability check.
    if (err instanceof IntegrationError && err.kind === 'rejected') {
      if (await nameExistsOn(server, input.username)) throw usernameTaken();
    }
    throw mediaServerFailure(err, 'create your media account');
  }
  try {
    await server.updatePolicy(created.id, { ...policy, disabled: input.disabled });
  } catch (err) {
    await compensate(ctx, created.id);
    throw mediaServerFailure(err, 'set up your media account');
  }
  return { mediaUserId: created.id, disabled: input.disabled };
}

/**
 * Undoes a media-server account Usher created for a member whose creation failed later (§8.1
 * step 6): deletes it, and when the delete fails queues a `delete` retry
 * (`origin='register_cleanup'`, first attempt 30 s later) so no orphan is left. Never throws for
 * the media-server failure itself: the caller is already reporting the original error.
 */
export async function compensate(
  ctx: Pick<ProvisionContext, 'db' | 'logger' | 'integrations'>,
  mediaUserId: string,
): Promise<CleanupOutcome> {
  try {
    const server = await ctx.integrations.mediaServer.get();
    await server.deleteUser(mediaUserId);
    return 'deleted';
  } catch (err) {
    // Whatever failed (server down, settings changed meanwhile), the account must still go.
    const reason = err instanceof Error ? err.message : String(err);
    ctx.logger.warn(
      { mediaUserId, err: reason },
      'could not delete the media-server user of a failed account creation; queued for retry',
    );
    await insertDeleteRetry(ctx.db, mediaUserId, reason);
    return 'queued';
  }
}

/**
 * §8.1 step 2 for the username: free in Usher (case-insensitive) **and** on the media server
 * (also case-insensitive, since both servers match names that way at login). Throws 409
 * `USERNAME_TAKEN`, or the mapped 502/503 when the media server cannot be asked.
 */
export async function assertUsernameAvailable(
  ctx: Pick<ProvisionContext, 'db' | 'integrations'>,
  username: string,
): Promise<void> {
  if (await isUsernameTakenLocally(ctx.db, username)) throw usernameTaken();
  let names: string[];
  try {
    const server = await ctx.integrations.mediaServer.get();
    names = (await server.listUsers()).map((u) => u.name.toLowerCase());
  } catch (err) {
    throw mediaServerFailure(err, 'check the username');
  }
  if (names.includes(username.toLowerCase())) throw usernameTaken();
}

/** Whether the server lists a user of that name (any case); false when it cannot be asked. */
async function nameExistsOn(server: MediaServer, username: string): Promise<boolean> {
  const wanted = username.toLowerCase();
  const users = await server.listUsers().catch(() => []);
  return users.some((u) => u.name.toLowerCase() === wanted);
}

export function usernameTaken(): AppError {
  return new AppError('USERNAME_TAKEN', 'This username is already taken');
}
