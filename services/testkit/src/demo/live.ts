// Who is on the server right now: a few people mid-film or mid-episode (one paused), and a couple
// with an app open but nothing playing.
import type { MediaFile } from './library.js';
import { CLIENTS } from './people.js';
import type { ItemKey, Viewer } from './playback.js';
import { pickDevice, playMethod } from './playback.js';
import type { Rng } from './prng.js';

export interface WorldSession {
  user: string;
  deviceId: string;
  lastActivity: Date;
  playing?: {
    item: ItemKey;
    file: MediaFile;
    positionSec: number;
    paused: boolean;
    method: string;
    reasons: string[];
  };
}

export function liveSessions(
  rng: Rng,
  viewers: Viewer[],
  now: Date,
  counts = { playing: 5, idle: 2 },
): WorldSession[] {
  const active = viewers.filter(
    (v) => !v.user.disabled && v.user.activeUntil.getTime() >= now.getTime(),
  );
  const chosen = rng.sample(active, counts.playing + counts.idle);
  const sessions: WorldSession[] = [];
  chosen.forEach((viewer, i) => {
    const device = pickDevice(rng, viewer.user);
    const item = i < counts.playing ? viewer.next(now.getTime()) : undefined;
    if (!item) {
      const idleFor = rng.int(1, 12) * 60_000;
      sessions.push({
        user: viewer.user.name,
        deviceId: device.deviceId,
        lastActivity: new Date(now.getTime() - idleFor),
      });
      return;
    }
    const runtime = item.minutes * 60;
    sessions.push({
      user: viewer.user.name,
      deviceId: device.deviceId,
      lastActivity: new Date(now.getTime() - rng.int(0, 50) * 1000),
      playing: {
        item: item.key,
        file: item.file,
        positionSec: rng.int(120, Math.max(121, Math.round(runtime * 0.9))),
        // One of them stepped away.
        paused: i === 1,
        ...playMethod(rng, CLIENTS[device.kind], item.file),
      },
    });
  });
  return sessions;
}
