// §8.3 login fallback: a linked member whose password was changed on the media server itself
// (e.g. in the Emby/Jellyfin app) can still sign in to Usher with it.
import type { UserRow } from '../../db/schema/index.js';
import { IntegrationError } from '../../integrations/errors.js';
import { normaliseId, usherDeviceId } from '../../integrations/media-server/port.js';
import type { ModuleContext } from '../context.js';
import { managesMediaPassword } from './passwords.js';

/**
 * Whether the media server accepts `password` for the member's media account (same media user
 * id). Only for linked members, only when the media server is configured; any failure of the
 * check (wrong password, disabled account, server down) answers false. The adapter ends the
 * session the check created, and signs in with the member's stable DeviceId so Jellyfin
 * replaces rather than piles up devices.
 */
export async function mediaServerAcceptsPassword(
  ctx: Pick<ModuleContext, 'integrations' | 'logger'>,
  row: UserRow,
  password: string,
): Promise<boolean> {
  if (!managesMediaPassword(row)) return false;
  try {
    const server = await ctx.integrations.mediaServer.get();
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
        { userId: row.id, err: (err as Error).message },
        'media-server login fallback could not reach the media server',
      );
    }
    return false;
  }
}
