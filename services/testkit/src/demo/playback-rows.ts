// The world's viewing history as Playback Reporting rows, in the plugin's own text formats
// (local-time DateCreated, `Series - s01e02 - Title` names, Emby-only columns on Emby).
import { pluginDate } from '../media-server/playback-store.js';
import type { FakeDevice, FakeItem, MediaState } from '../media-server/types.js';
import type { DemoWorld } from './world.js';

const pad = (n: number) => String(n).padStart(2, '0');

function itemName(item: FakeItem): string {
  if (item.type !== 'Episode') return item.name;
  const code = `s${pad(item.parentIndexNumber ?? 0)}e${pad(item.indexNumber ?? 0)}`;
  return `${item.seriesName} - ${code} - ${item.name}`;
}

export function loadPlayback(
  state: MediaState,
  world: DemoWorld,
  userIds: Map<string, string>,
  itemIds: Map<string, string>,
  devices: Map<string, FakeDevice>,
): void {
  const emby = state.flavour === 'emby';
  // One transaction: thousands of single-row commits would dominate the build time.
  state.playback.db.exec('BEGIN');
  try {
    for (const play of world.plays) {
      const item = state.items.get(itemIds.get(play.item) ?? '');
      const device = devices.get(play.deviceId);
      const userId = userIds.get(play.user);
      if (!item || !device || !userId) continue;
      state.playback.insert({
        DateCreated: pluginDate(play.at, state.timeZone),
        UserId: userId,
        ItemId: item.id,
        ItemType: item.type,
        ItemName: itemName(item),
        PlaybackMethod: play.method,
        ClientName: device.appName,
        DeviceName: device.name,
        PlayDuration: play.durationSec,
        ...(emby
          ? {
              PauseDuration: play.pauseSec,
              RemoteAddress: device.ipAddress,
              TranscodeReasons: play.reasons.join(','),
            }
          : {}),
      });
    }
    state.playback.db.exec('COMMIT');
  } catch (err) {
    // Leave the store usable for the caller's next statement, then report the real failure.
    state.playback.db.exec('ROLLBACK');
    throw err;
  }
}
