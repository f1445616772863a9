// §8.3 login fallback: a linked member whose password was changed on the media server itself
// (e.g. in the Emby/Jellyfin app) can still sign in to Usher with it.
import { randomBytes } from 'node:crypto';
import type { UserRow } from '../../db/schema/index.js';
import { IntegrationError } from '../../integrations/errors.js';
import { normaliseId, usherDeviceId } from '../../integrations/media-server/port.js';
import type { ModuleContext } from '../context.js';
import { managesMediaPassword } from './passwords.js';

/**
 * The name the timing check signs in with when there is no linked media account to check. Media
 * servers answer an unknown name as they answer a wrong password; operators may see it in the
 * media server's activity log.
 */
export const TIMING_CHECK_NAME = 'usher-login-check';

/**
 * Whether the media server accepts `password` for the member's media account (same media user
 * id). Only a linked member can be accepted, only when the media server is configured; any
 * failure of the check (wrong password, disabled account, server down) answers false. The adapter
 * ends the session the check created, and signs in with the member's stable DeviceId so Jellyfin
 * replaces rather than piles up devices.
 *
 * Called after every failed local password check, whoever the name belongs to (issue 16): for an
 * unknown name, an admin or an unlinked member the same round trip is made with
 * TIMING_CHECK_NAME and a random password (never what was typed), so a failed login costs the same
 * whether or not the name exists or has a media account.
 */
export async function mediaServerAcceptsPassword(
  ctx: Pick<ModuleContext, 'integrations' | 'logger'>,
  row: UserRow | undefined,
  password: string,
): Promise<boolean> {
  const linked = row !== undefined && managesMediaPassword(row);
  try {
    const server = await ctx.integrations.mediaServer.get();
    if (!linked) {
      await server.authenticate(TIMING_CHECK_NAME, randomBytes(18).toString('base64url'), {
        deviceId: usherDeviceId(TIMING_CHECK_NAME),
      });
      return false;
    }
    const result = await server.authenticate(row.username, password, {
      deviceId: usherDeviceId(row.id),
    });
    return normaliseId(result.userId) === row.mediaUserId;
  } catch (err) {
    // A refused password is the usual answer; anything else is worth a line in the log.
    const refused = err instanceof IntegrationError && ['auth', 'rejected'].includes(err.kind);
    const notConfigured = err instanceof IntegrationError && err.kind === 'not_configured';
    if (!refused && !notConfigured) {
      ctx.logger.warn(
        { userId: row?.id ?? null, err: (err as Error).message },
        'media-server login fallback could not reach the media server',
      );
    }
    return false;
  }
}
