// Emby adapter (Emby ≥ 4.7): `/emby` prefix, both of Emby's key headers, two-call user creation,
// `/Users/Query` with the old bare list as fallback, and device list Ids that are not DeviceIds.
import { z } from 'zod';
import { BaseMediaServer } from './base.js';
import { noSuchUser, seg, type Call } from './client.js';
import type { MediaDevice, MediaItem, MediaUser, SessionMessage } from './port.js';
import { normaliseId } from './port.js';
import {
  defined,
  devicesSchema,
  isoUtc,
  ItemPageSchema,
  ItemSchema,
  type SessionSchema,
  tmdbOf,
  toMediaItem,
  toMediaUser,
  UserListSchema,
} from './wire.js';

const EmbyDevicesSchema = devicesSchema({
  Id: z.union([z.string(), z.number()]),
  ReportedDeviceId: z.string().nullish(),
  IpAddress: z.string().nullish(),
});

export class EmbyMediaServer extends BaseMediaServer {
  readonly kind = 'emby' as const;
  /** Set once `/Users/Query` answered 404 (Emby before 4.8): later lists go straight to /Users. */
  private usersQueryMissing = false;

  /** A Jellyfin 12 server has no `/emby` paths at all: ask its root who it is. */
  protected otherProductProbe(): Call {
    return {
      op: 'probe',
      path: '/System/Info/Public',
      auth: { as: 'anonymous' },
      unprefixed: true,
    };
  }

  /**
   * Emby's create call has no password member (§8 risk 3): create, then set the password, and
   * delete the half-made user if that second call fails.
   */
  async createUser(name: string, pw: string): Promise<MediaUser> {
    const user = await this.postNewUser({ Name: name });
    try {
      await this.setPassword(user.id, pw);
    } catch (err) {
      // Any failure of the second call leaves a user without a password: remove it, then report
      // the original failure. A failing delete is logged and does not hide that failure.
      await this.deleteUser(user.id).catch((cleanup: unknown) => {
        this.deps.logger?.error(
          { err: String(cleanup), mediaUserId: user.id },
          'media server: could not delete a user whose password step failed',
        );
      });
      throw err;
    }
    return { ...user, hasPassword: pw !== '' };
  }

  async setPassword(userId: string, pw: string): Promise<void> {
    const id = normaliseId(userId);
    const reply = await this.client.send({
      op: 'set_password',
      method: 'POST',
      path: `/Users/${seg(id)}/Password`,
      json: { Id: id, NewPw: pw, ResetPassword: false },
      pass: [404],
    });
    if (reply.status === 404) throw noSuchUser('set_password');
  }

  async listUsers(): Promise<MediaUser[]> {
    if (!this.usersQueryMissing) {
      const call: Call = { op: 'list_users', path: '/Users/Query', pass: [404] };
      const reply = await this.client.send(call);
      if (reply.status !== 404) {
        return this.client.parse(reply, call, UserListSchema).map(toMediaUser);
      }
      this.usersQueryMissing = true;
    }
    const users = await this.client.json({ op: 'list_users', path: '/Users' }, UserListSchema);
    return users.map(toMediaUser);
  }

  protected missingFilter(): Record<string, boolean> {
    // Emby 4.8 documents no IsMissing here and never lists virtual episodes to a key.
    return {};
  }

  protected sessionsQuery(): Record<string, number> {
    return {};
  }

  /** Emby binds the message from the query; `Text` and `Header` are required there. */
  protected messagePayload(message: SessionMessage): Pick<Call, 'query' | 'json'> {
    return {
      query: { Text: message.text, Header: message.header, TimeoutMs: message.timeoutMs },
    };
  }

  /** Emby's `InternalDeviceId` is the `/Devices` list Id that sign-out takes. */
  protected sessionDeviceKey(dto: z.infer<typeof SessionSchema>): string | undefined {
    const id = dto.InternalDeviceId;
    return id === null || id === undefined || id === 0 ? undefined : String(id);
  }

  /** Emby has no user filter on `/Devices`; filter by the last user here. */
  async listDevices(userId?: string): Promise<MediaDevice[]> {
    const page = await this.client.json(
      { op: 'list_devices', path: '/Devices' },
      EmbyDevicesSchema,
    );
    const wanted = userId === undefined ? undefined : normaliseId(userId);
    return page.Items.map((d): MediaDevice => ({
      key: String(d.Id),
      deviceId: d.ReportedDeviceId ?? String(d.Id),
      name: d.Name ?? '',
      ...defined('client', d.AppName ?? undefined),
      ...defined('appVersion', d.AppVersion ?? undefined),
      ...defined('lastUserId', d.LastUserId ? normaliseId(d.LastUserId) : undefined),
      ...defined('lastUserName', d.LastUserName ?? undefined),
      ...defined('lastActivityAt', isoUtc(d.DateLastActivity)),
      ...defined('ipAddress', d.IpAddress ?? undefined),
    })).filter((d) => wanted === undefined || d.lastUserId === wanted);
  }

  async latestItems(
    userId: string,
    q: { types: ('Movie' | 'Episode')[]; limit: number },
  ): Promise<MediaItem[]> {
    const call: Call = {
      op: 'latest_items',
      path: `/Users/${seg(normaliseId(userId))}/Items/Latest`,
      query: this.latestQuery(q),
    };
    const items = await this.client.json(call, z.array(ItemSchema));
    return items.map((i) => toMediaItem(i));
  }

  async resumeItems(userId: string, limit: number): Promise<MediaItem[]> {
    const call: Call = {
      op: 'resume_items',
      path: `/Users/${seg(normaliseId(userId))}/Items/Resume`,
      query: this.resumeQuery(limit),
    };
    const page = await this.client.json(call, ItemPageSchema);
    return page.Items.map((i) => toMediaItem(i));
  }

  /**
   * `AnyProviderIdEquals` is not verified to filter on every Emby build (§8 risk 11), so the
   * TMDB id is matched here too.
   */
  async findByTmdbId(tmdbId: number, type: 'Movie' | 'Series'): Promise<MediaItem | null> {
    const [hit] = await this.itemsByTmdbIds([tmdbId], type);
    return hit ?? null;
  }

  /** One `/Items` call with every id in `AnyProviderIdEquals`, each hit checked as above. */
  async findManyByTmdbIds(
    tmdbIds: number[],
    type: 'Movie' | 'Series',
  ): Promise<Map<number, MediaItem>> {
    const byTmdb = new Map<number, MediaItem>();
    if (tmdbIds.length === 0) return byTmdb;
    for (const item of await this.itemsByTmdbIds(tmdbIds, type)) {
      const id = Number(tmdbOf(item.providerIds));
      if (!byTmdb.has(id)) byTmdb.set(id, item);
    }
    return byTmdb;
  }

  /** The items of `type` whose `ProviderIds.Tmdb` is one of `tmdbIds` (one call). */
  private async itemsByTmdbIds(tmdbIds: number[], type: 'Movie' | 'Series'): Promise<MediaItem[]> {
    const wanted = new Set(tmdbIds.map(String));
    const call: Call = {
      op: 'find_by_tmdb',
      path: '/Items',
      query: {
        Recursive: true,
        IncludeItemTypes: [type],
        AnyProviderIdEquals: tmdbIds.map((id) => `tmdb.${id}`),
        Fields: ['ProviderIds'],
      },
    };
    const page = await this.client.json(call, ItemPageSchema);
    return page.Items.map((i) => toMediaItem(i)).filter((item) =>
      wanted.has(tmdbOf(item.providerIds) ?? ''),
    );
  }
}
