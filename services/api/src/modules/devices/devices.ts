// Devices signed in to the media server (20-api.md §6 "Devices"): the live list joined to Usher
// users, its statistics, and signing one device out. The list is read from the media server on
// every call (it is the truth about tokens); paging happens here, after the filters.
import { DAY_MS } from '../../time/units.js';
import type { Device, DeviceList, DeviceListQuery, DeviceStats } from '@usher/contracts';
import { auditCaller } from '../../audit-log/audit.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import type { MediaDevice, MediaSession } from '../../integrations/media-server/index.js';
import type { Caller, ModuleContext } from '../context.js';
import { usersByMediaId, type LinkedUser } from '../media/index.js';
import {
  blacklistNames,
  countBlacklist,
  failureNote,
  mediaUserIdOf,
  recordDeviceAction,
} from './queries.js';

/** Client names as the blacklist stores and matches them: trimmed, lower-cased, spaces collapsed. */
export function normalizeClient(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function toDevice(
  d: MediaDevice,
  linked: LinkedUser | undefined,
  blacklisted: boolean,
): Device {
  return {
    id: d.key,
    deviceId: d.deviceId,
    name: d.name,
    client: d.client ?? '',
    appVersion: d.appVersion ?? '',
    lastUser: d.lastUserId
      ? {
          mediaUserId: d.lastUserId,
          name: d.lastUserName ?? '',
          ...(linked ? { userId: linked.id, username: linked.username } : {}),
        }
      : null,
    lastActivityAt: d.lastActivityAt ?? null,
    ip: d.ipAddress ?? null,
    blacklisted,
  };
}

/**
 * Jellyfin's `/Devices` carries no address (50-integrations.md §1.4, only Emby sends
 * `IpAddress`): a device without one takes its session's `RemoteEndPoint`, so the IP column is
 * not empty on Jellyfin (issue 36).
 */
function withSessionAddresses(devices: MediaDevice[], sessions: MediaSession[]): MediaDevice[] {
  const addresses = new Map<string, string>();
  for (const s of sessions) {
    if (s.deviceId && s.remoteAddress) addresses.set(s.deviceId, s.remoteAddress);
  }
  return devices.map((d) => {
    const ip = d.ipAddress ?? addresses.get(d.deviceId);
    return ip === undefined ? d : { ...d, ipAddress: ip };
  });
}

const byActivity = (a: MediaDevice, b: MediaDevice) =>
  (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? '') || a.key.localeCompare(b.key);

export async function listDevices(ctx: ModuleContext, q: DeviceListQuery): Promise<DeviceList> {
  const page = { page: q.page, pageSize: q.pageSize };
  let mediaUserId: string | undefined;
  if (q.userId) {
    const linked = await mediaUserIdOf(ctx.db, q.userId);
    // An unknown or unlinked user has no devices on the media server.
    if (!linked) return { data: [], total: 0, ...page };
    mediaUserId = linked;
  }
  const server = await ctx.integrations.mediaServer.get();
  const [listed, sessions, names] = await Promise.all([
    server.listDevices(),
    server.listSessions(),
    blacklistNames(ctx.db),
  ]);
  const devices = withSessionAddresses(listed, sessions);
  const client = q.client === undefined ? undefined : normalizeClient(q.client);
  const isBlacklisted = (d: MediaDevice) => names.has(normalizeClient(d.client ?? ''));
  const kept = devices
    .filter((d) => mediaUserId === undefined || d.lastUserId === mediaUserId)
    .filter((d) => client === undefined || normalizeClient(d.client ?? '') === client)
    .filter((d) => q.blacklisted === undefined || isBlacklisted(d) === q.blacklisted)
    .sort(byActivity);
  const slice = kept.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
  const linked = await usersByMediaId(
    ctx.db,
    slice.map((d) => d.lastUserId ?? ''),
  );
  return {
    data: slice.map((d) =>
      toDevice(d, d.lastUserId ? linked.get(d.lastUserId) : undefined, isBlacklisted(d)),
    ),
    total: kept.length,
    ...page,
  };
}

const TOP_USERS = 10;

export async function deviceStats(ctx: ModuleContext): Promise<DeviceStats> {
  const server = await ctx.integrations.mediaServer.get();
  const [devices, sessions, blacklistEntries] = await Promise.all([
    server.listDevices(),
    server.listSessions(),
    countBlacklist(ctx.db),
  ]);
  const since = ctx.now().getTime() - DAY_MS;
  const clients = new Map<string, number>();
  const owners = new Map<string, { name: string; count: number }>();
  for (const d of devices) {
    const client = d.client ?? '';
    clients.set(client, (clients.get(client) ?? 0) + 1);
    if (d.lastUserId) {
      const o = owners.get(d.lastUserId) ?? { name: d.lastUserName ?? '', count: 0 };
      o.count += 1;
      owners.set(d.lastUserId, o);
    }
  }
  const top = [...owners.entries()]
    .sort((a, b) => b[1].count - a[1].count || a[1].name.localeCompare(b[1].name))
    .slice(0, TOP_USERS);
  const linked = await usersByMediaId(
    ctx.db,
    top.map(([id]) => id),
  );
  return {
    total: devices.length,
    activeLast24h: devices.filter(
      (d) => d.lastActivityAt !== undefined && Date.parse(d.lastActivityAt) >= since,
    ).length,
    byClient: [...clients.entries()]
      .map(([client, count]) => ({ client, count }))
      .sort((a, b) => b.count - a.count || a.client.localeCompare(b.client)),
    topUsers: top.map(([mediaUserId, o]) => {
      const user = linked.get(mediaUserId);
      return { ...(user ? { userId: user.id } : {}), mediaUserId, name: o.name, count: o.count };
    }),
    blacklistEntries,
    activeSessions: sessions.length,
  };
}

/**
 * Signs one device out. The device is looked up first (404 when the server no longer lists it,
 * and the log row names what was targeted); a refused sign-out is logged `failed` and answered
 * with the adapter's error.
 */
export async function logoutDevice(
  ctx: ModuleContext,
  deviceId: string,
  caller: Caller,
): Promise<void> {
  const server = await ctx.integrations.mediaServer.get();
  const devices = await server.listDevices();
  const device =
    devices.find((d) => d.key === deviceId) ?? devices.find((d) => d.deviceId === deviceId);
  if (!device) throw new AppError('DEVICE_NOT_FOUND', 'No such device on the media server');
  const linked = device.lastUserId
    ? (await usersByMediaId(ctx.db, [device.lastUserId])).get(device.lastUserId)
    : undefined;
  let error: unknown = null;
  try {
    await server.logoutDevice(device.key);
  } catch (err) {
    error = err;
  }
  const outcome = error === null ? 'ok' : 'failed';
  await withTransaction(ctx, async (tx) => {
    await recordDeviceAction(tx, {
      action: 'logout',
      device,
      userId: linked?.id ?? null,
      actorId: caller.auth.userId,
      outcome,
      note: error === null ? null : failureNote(error),
    });
    await auditCaller(
      tx,
      caller,
      'device.logout',
      { type: 'device', id: device.key },
      {
        deviceName: device.name,
        client: device.client ?? null,
        mediaUserId: device.lastUserId ?? null,
        outcome,
      },
    );
  });
  if (error !== null) throw error;
}
