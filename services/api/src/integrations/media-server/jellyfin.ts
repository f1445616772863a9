// Jellyfin adapter (10.9–10.11 and 12): no path prefix, only the MediaBrowser header form (12
// ignores the Emby ones, §8 risks 1–2), one-call user creation, and a client-side TMDB lookup
// because Jellyfin has no provider-id filter (§8 risk 11).
import { z } from 'zod';
import { BaseMediaServer } from './base.js';
import { noSuchUser, type Call } from './client.js';
import type { MediaDevice, MediaItem, MediaUser, SessionMessage } from './port.js';
import { isGuid, normaliseId } from './port.js';
import {
  defined,
  devicesSchema,
  isoUtc,
  ItemPageSchema,
  ItemSchema,
  type SessionSchema,
  tmdbOf,
  toMediaItem,
  UserListSchema,
  toMediaUser,
} from './wire.js';

const JellyfinDevicesSchema = devicesSchema({
  Id: z.string(),
  CustomName: z.string().nullish(),
});

/** Sessions idle longer than this are not listed (§1.4). */
const ACTIVE_WITHIN_SECONDS = 960;
const TMDB_PAGE = 500;
const TMDB_MAX_PAGES = 40;
const TMDB_MAP_TTL_MS = 10 * 60_000;

interface TmdbMap {
  at: number;
  byTmdb: Map<string, MediaItem>;
}

export class JellyfinMediaServer extends BaseMediaServer {
  readonly kind = 'jellyfin' as const;
  private readonly tmdbMaps = new Map<'Movie' | 'Series', TmdbMap>();

  /** An Emby server behind a root URL answers under `/emby`. */
  protected otherProductProbe(): Call {
    return { op: 'probe', path: '/emby/System/Info/Public', auth: { as: 'anonymous' } };
  }

  /** Jellyfin takes the password in the create call; new users start with all libraries. */
  createUser(name: string, pw: string): Promise<MediaUser> {
    return this.postNewUser({ Name: name, Password: pw });
  }

  /** The query form (10.9+); Jellyfin then ends every other session of the user (§8 risk 4). */
  async setPassword(userId: string, pw: string): Promise<void> {
    const reply = await this.client.send({
      op: 'set_password',
      method: 'POST',
      path: '/Users/Password',
      query: { UserId: normaliseId(userId) },
      json: { CurrentPw: '', NewPw: pw, ResetPassword: false },
      pass: [404],
    });
    if (reply.status === 404) throw noSuchUser('set_password');
  }

  override async getUser(userId: string): Promise<MediaUser | null> {
    // Jellyfin answers 400 for an id that is no GUID; such a user cannot exist.
    return isGuid(userId) ? super.getUser(userId) : null;
  }

  async listUsers(): Promise<MediaUser[]> {
    const users = await this.client.json({ op: 'list_users', path: '/Users' }, UserListSchema);
    return users.map(toMediaUser);
  }

  /** With an API key Jellyfin lists virtual ("missing") episodes unless told not to (risk 10). */
  protected missingFilter(): Record<string, boolean> {
    return { IsMissing: false };
  }

  protected sessionsQuery(): Record<string, number> {
    return { ActiveWithinSeconds: ACTIVE_WITHIN_SECONDS };
  }

  /** Jellyfin takes a `MessageCommand` body (`Text` required; `Header`, `TimeoutMs`). */
  protected messagePayload(message: SessionMessage): Pick<Call, 'query' | 'json'> {
    return {
      json: {
        Header: message.header,
        Text: message.text,
        ...(message.timeoutMs === undefined ? {} : { TimeoutMs: message.timeoutMs }),
      },
    };
  }

  /** On Jellyfin the client's DeviceId is also the `/Devices` Id. */
  protected sessionDeviceKey(dto: z.infer<typeof SessionSchema>): string | undefined {
    return dto.DeviceId ?? undefined;
  }

  async listDevices(userId?: string): Promise<MediaDevice[]> {
    const call: Call = {
      op: 'list_devices',
      path: '/Devices',
      query: { UserId: userId === undefined ? undefined : normaliseId(userId) },
    };
    const page = await this.client.json(call, JellyfinDevicesSchema);
    return page.Items.map((d): MediaDevice => ({
      key: d.Id,
      deviceId: d.Id,
      name: d.CustomName || d.Name || '',
      ...defined('client', d.AppName ?? undefined),
      ...defined('appVersion', d.AppVersion ?? undefined),
      ...defined('lastUserId', d.LastUserId ? normaliseId(d.LastUserId) : undefined),
      ...defined('lastUserName', d.LastUserName ?? undefined),
      ...defined('lastActivityAt', isoUtc(d.DateLastActivity)),
    }));
  }

  /** `/UserItems/Resume` (10.9 moved it from `/Users/{id}/Items/Resume`); `UserId` required. */
  async resumeItems(userId: string, limit: number): Promise<MediaItem[]> {
    const call: Call = {
      op: 'resume_items',
      path: '/UserItems/Resume',
      query: { UserId: normaliseId(userId), ...this.resumeQuery(limit) },
    };
    const page = await this.client.json(call, ItemPageSchema);
    return page.Items.map((i) => toMediaItem(i));
  }

  /** With an API key there is no current user, so `userId` is required (§1.4). */
  async latestItems(
    userId: string,
    q: { types: ('Movie' | 'Episode')[]; limit: number },
  ): Promise<MediaItem[]> {
    const call: Call = {
      op: 'latest_items',
      path: '/Items/Latest',
      query: { UserId: normaliseId(userId), ...this.latestQuery(q) },
    };
    const items = await this.client.json(call, z.array(ItemSchema));
    return items.map((i) => toMediaItem(i));
  }

  /**
   * Title search first (cheap); otherwise a tmdb→item map of the whole type, built by paging and
   * kept 10 minutes. Every hit is checked on `ProviderIds.Tmdb`, since Jellyfin ignores
   * provider-id filters and would return everything.
   */
  async findByTmdbId(
    tmdbId: number,
    type: 'Movie' | 'Series',
    titleHint?: string,
  ): Promise<MediaItem | null> {
    const wanted = String(tmdbId);
    if (titleHint?.trim()) {
      const query = { ...this.tmdbQuery(type), SearchTerm: titleHint.trim() };
      const page = await this.client.json(
        { op: 'find_by_tmdb', path: '/Items', query },
        ItemPageSchema,
      );
      const hit = page.Items.map((i) => toMediaItem(i)).find(
        (i) => tmdbOf(i.providerIds) === wanted,
      );
      if (hit) return hit;
    }
    const map = await this.tmdbMap(type);
    return map.get(wanted) ?? null;
  }

  /** From the tmdb→item map of the whole type (kept 10 minutes, as for `findByTmdbId`). */
  async findManyByTmdbIds(
    tmdbIds: number[],
    type: 'Movie' | 'Series',
    o: { fresh?: boolean } = {},
  ): Promise<Map<number, MediaItem>> {
    const byTmdb = new Map<number, MediaItem>();
    if (tmdbIds.length === 0) return byTmdb;
    if (o.fresh) this.tmdbMaps.delete(type);
    const map = await this.tmdbMap(type);
    for (const id of tmdbIds) {
      const item = map.get(String(id));
      if (item) byTmdb.set(id, item);
    }
    return byTmdb;
  }

  private tmdbQuery(type: 'Movie' | 'Series') {
    return {
      Recursive: true,
      IncludeItemTypes: [type],
      HasTmdbId: true,
      Fields: ['ProviderIds'],
    };
  }

  private async tmdbMap(type: 'Movie' | 'Series'): Promise<Map<string, MediaItem>> {
    const cached = this.tmdbMaps.get(type);
    if (cached && Date.now() - cached.at < TMDB_MAP_TTL_MS) return cached.byTmdb;
    const byTmdb = new Map<string, MediaItem>();
    for (let pageNo = 0; pageNo < TMDB_MAX_PAGES; pageNo++) {
      const query = {
        ...this.tmdbQuery(type),
        SortBy: ['SortName'],
        StartIndex: pageNo * TMDB_PAGE,
        Limit: TMDB_PAGE,
      };
      // Paging through a whole type is a scan: three times the normal timeout.
      const call: Call = { op: 'find_by_tmdb', path: '/Items', query, slow: true };
      const page = await this.client.json(call, ItemPageSchema);
      for (const item of page.Items.map((i) => toMediaItem(i))) {
        if (item.tmdbId && !byTmdb.has(item.tmdbId)) byTmdb.set(item.tmdbId, item);
      }
      const total = page.TotalRecordCount ?? 0;
      if (page.Items.length < TMDB_PAGE || (pageNo + 1) * TMDB_PAGE >= total) break;
    }
    this.tmdbMaps.set(type, { at: Date.now(), byTmdb });
    return byTmdb;
  }
}
