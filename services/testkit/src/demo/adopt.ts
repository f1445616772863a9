// Usher has no "import an existing media user" route: a member's media account is the one Usher
// creates for it (20-api.md §8.1). To give the demo's Usher members the world's history, the
// launcher steps a world user aside (`setAside`), lets Usher create the member under the same
// name through `POST /admin/users`, then moves the world user's past onto the account Usher
// created (`adoptMediaUser`): devices, live sessions, Playback Reporting rows and resume points
// follow, and the world user's record is dropped. To the API it looks like a community that has
// always been run through Usher.
import type { FakeDevice, MediaState } from '../media-server/types.js';

/** Renames a world user so Usher's "name taken on the media server" check lets the name through. */
export function setAside(state: MediaState, userId: string): void {
  const user = state.users.get(userId);
  if (!user) throw new Error(`setAside: no media user ${userId}`);
  user.name = `${user.name}~before-usher`;
}

/**
 * Moves everything of media user `fromId` onto `toId` (created by Usher) and deletes `fromId`.
 * The account keeps Usher's policy and password; it takes the world user's join date and last
 * activity, so the media server tells the same story as before.
 */
export function adoptMediaUser(state: MediaState, fromId: string, toId: string): void {
  const from = state.users.get(fromId);
  const to = state.users.get(toId);
  if (!from || !to) throw new Error(`adoptMediaUser: unknown media user ${from ? toId : fromId}`);
  to.dateCreated = from.dateCreated;
  if (from.lastLoginDate) to.lastLoginDate = from.lastLoginDate;
  if (from.lastActivityDate) to.lastActivityDate = from.lastActivityDate;

  const emby = state.flavour === 'emby';
  const moved = new Map<string, string>();
  for (const [key, device] of [...state.devices]) {
    if (device.userId !== fromId) continue;
    // Jellyfin keeps one record per user and DeviceId, so the key names the user too.
    const next: FakeDevice = {
      ...device,
      userId: toId,
      key: emby ? device.key : `d:${toId}:${device.deviceId}`,
    };
    state.devices.delete(key);
    state.devices.set(next.key, next);
    moved.set(key, next.key);
  }
  for (const session of state.sessions.values()) {
    if (session.userId !== fromId) continue;
    session.userId = toId;
    session.deviceKey = moved.get(session.deviceKey) ?? session.deviceKey;
  }
  state.playback.db
    .prepare('UPDATE PlaybackActivity SET UserId = ? WHERE UserId = ?')
    .run(toId, fromId);
  // Where the world user stopped ("continue watching", issue 36) follows too.
  if (from.userData) to.userData = new Map([...(to.userData ?? []), ...from.userData]);
  state.users.delete(fromId);
}
