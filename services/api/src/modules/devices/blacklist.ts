// The client blacklist (20-api.md §6 "Devices"): entries, the immediate sign-out on add, and the
// sweep that the `devices_enforce_blacklist` job and `POST /admin/devices/blacklist/logout` share.
import type { BlacklistCreate, BlacklistCreated, LogoutOutcome } from '@usher/contracts';
import { z } from 'zod';
import { v7 as uuidv7 } from 'uuid';
import { auditCaller } from '../../audit-log/audit.js';
import { withTransaction } from '../../db/transaction.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../errors/app-error.js';
import type { MediaDevice, MediaServer } from '../../integrations/media-server/index.js';
import type { Caller, ModuleContext } from '../context.js';
import { usersByMediaId } from '../media/index.js';
import { normalizeClient } from './devices.js';
import {
  blacklistNames,
  deleteBlacklistEntry,
  failureNote,
  findUserName,
  insertBlacklistEntry,
  recordDeviceAction,
  toBlacklistEntry,
} from './queries.js';

/** Who runs a sweep: an admin (their id goes in the log) or the scheduled job (null). */
export interface SweepBy {
  actorId: string | null;
}

/**
 * Signs out every listed device whose client matches one of `names`, one call at a time, and logs
 * each attempt. A refused or failed call is counted in `failed` and the sweep goes on, so the
 * counts say exactly what happened; the next run retries what is left.
 */
export async function sweepDevices(
  ctx: ModuleContext,
  server: MediaServer,
  devices: MediaDevice[],
  names: Set<string>,
  by: SweepBy,
  signal?: AbortSignal,
): Promise<LogoutOutcome> {
  const targets = devices.filter((d) => d.client && names.has(normalizeClient(d.client)));
  const outcome: LogoutOutcome = { loggedOut: 0, failed: 0 };
  if (targets.length === 0) return outcome;
  const linked = await usersByMediaId(
    ctx.db,
    targets.map((d) => d.lastUserId ?? ''),
  );
  for (const device of targets) {
    if (signal?.aborted) break;
    let error: unknown = null;
    try {
      await server.logoutDevice(device.key);
      outcome.loggedOut += 1;
    } catch (err) {
      error = err;
      outcome.failed += 1;
      ctx.logger.warn({ err, device: device.key }, 'blacklist sign-out failed');
    }
    await recordDeviceAction(ctx.db, {
      action: 'enforce_blacklist',
      device,
      userId: device.lastUserId ? (linked.get(device.lastUserId)?.id ?? null) : null,
      actorId: by.actorId,
      outcome: error === null ? 'ok' : 'failed',
      note: error === null ? null : failureNote(error),
    });
  }
  return outcome;
}

/** The whole blacklist against the live device list. */
export async function enforceBlacklist(
  ctx: ModuleContext,
  by: SweepBy,
  signal?: AbortSignal,
): Promise<LogoutOutcome & { entries: number; devices: number }> {
  const names = await blacklistNames(ctx.db);
  const server = await ctx.integrations.mediaServer.get();
  if (names.size === 0) return { loggedOut: 0, failed: 0, entries: 0, devices: 0 };
  const devices = await server.listDevices();
  const outcome = await sweepDevices(ctx, server, devices, names, by, signal);
  return { ...outcome, entries: names.size, devices: devices.length };
}

/** `POST /admin/devices/blacklist/logout`: the job's sweep, run now, audited with its counts. */
export async function enforceNow(ctx: ModuleContext, caller: Caller): Promise<LogoutOutcome> {
  const { loggedOut, failed } = await enforceBlacklist(ctx, { actorId: caller.auth.userId });
  await auditCaller(
    ctx.db,
    caller,
    'device.blacklist_enforce',
    { type: 'client_blacklist', id: null },
    { loggedOut, failed },
  );
  return { loggedOut, failed };
}

/**
 * Adds a client. With `logoutNow` the device list is read first, so a media server that cannot be
 * reached answers 502 and nothing is stored; then the entry (with its log row and audit, in one
 * transaction), then the sign-outs, whose failures are counted, not thrown (the job retries them).
 */
export async function addToBlacklist(
  ctx: ModuleContext,
  body: BlacklistCreate,
  caller: Caller,
): Promise<BlacklistCreated> {
  const normalized = normalizeClient(body.clientName);
  let live: { server: MediaServer; devices: MediaDevice[] } | null = null;
  if (body.logoutNow) {
    const server = await ctx.integrations.mediaServer.get();
    live = { server, devices: await server.listDevices() };
  }
  const id = uuidv7();
  const row = await withTransaction(ctx, async (tx) => {
    const inserted = await insertBlacklistEntry(tx, {
      id,
      clientName: body.clientName.trim(),
      normalizedName: normalized,
      reason: body.reason,
      createdBy: caller.auth.userId,
      createdAt: ctx.now(),
    });
    await recordDeviceAction(tx, {
      action: 'blacklist_add',
      clientName: inserted.clientName,
      userId: null,
      actorId: caller.auth.userId,
      outcome: 'ok',
      note: body.reason === '' ? null : body.reason,
    });
    await auditCaller(
      tx,
      caller,
      'device.blacklist_add',
      { type: 'client_blacklist', id },
      { clientName: inserted.clientName, reason: body.reason, logoutNow: body.logoutNow },
    );
    return inserted;
  }).catch((err: unknown) => {
    if (isUniqueViolation(err, 'client_blacklist_normalized_name_uq')) {
      throw new AppError('BLACKLIST_ENTRY_EXISTS', 'That client is already on the blacklist');
    }
    throw err;
  });
  const outcome = live
    ? await sweepDevices(ctx, live.server, live.devices, new Set([normalized]), {
        actorId: caller.auth.userId,
      })
    : { loggedOut: 0, failed: 0 };
  const creator = await findUserName(ctx.db, caller.auth.userId);
  return { entry: toBlacklistEntry(row, creator), ...outcome };
}

export async function removeFromBlacklist(
  ctx: ModuleContext,
  id: string,
  caller: Caller,
): Promise<void> {
  const parsed = z.uuid().safeParse(id);
  if (!parsed.success) throw notFound();
  await withTransaction(ctx, async (tx) => {
    const gone = await deleteBlacklistEntry(tx, parsed.data);
    if (!gone) throw notFound();
    await recordDeviceAction(tx, {
      action: 'blacklist_remove',
      clientName: gone.clientName,
      userId: null,
      actorId: caller.auth.userId,
      outcome: 'ok',
      note: null,
    });
    await auditCaller(
      tx,
      caller,
      'device.blacklist_remove',
      { type: 'client_blacklist', id: gone.id },
      { clientName: gone.clientName },
    );
  });
}

const notFound = () => new AppError('BLACKLIST_ENTRY_NOT_FOUND', 'No such blacklist entry');
