// What Emby and Jellyfin adapters share: the operations whose paths and replies are the same on
// both (§1.4 "same"), with hooks where the servers differ. emby.ts and jellyfin.ts fill the hooks.
import { z } from 'zod';
import { IntegrationError } from '../errors.js';
import { seg, type Call, type MediaServerClient, type MediaServerDeps } from './client.js';
import { runPlaybackQuery } from './playback.js';
import { updatePolicyChecked } from './policy.js';
import type {
  ItemCounts,
  ItemImage,
  ItemsQuery,
  Library,
  MediaDevice,
  MediaItem,
  MediaServer,
  MediaServerKind,
  MediaSession,
  MediaUser,
  Page,
  PlaybackResult,
  PolicyPatch,
  ServerInfo,
  SessionMessage,
} from './port.js';
import { normaliseId, PRODUCT_NAMES } from './port.js';
import { readServerInfo } from './server-info.js';
import {
  AuthResultSchema,
  defined,
  ItemCountsSchema,
  ItemPageSchema,
  LibraryPageSchema,
  SessionSchema,
  toMediaItem,
  toMediaSession,
  toMediaUser,
  UserSchema,
} from './wire.js';

const NOT_IN_ACCESS_LISTS = new Set(['boxsets', 'playlists']);
const ITEM_FIELDS = ['ProviderIds', 'Path', 'ParentId', 'DateCreated'];
const STREAM_FIELDS = ['MediaStreams', 'MediaSources', ...ITEM_FIELDS];
/** `/Items?Ids=` takes at most this many ids per call (§1.4). */
const IDS_PER_CALL = 100;

export abstract class BaseMediaServer implements MediaServer {
  abstract readonly kind: MediaServerKind;
  constructor(
    protected readonly client: MediaServerClient,
    protected readonly deps: MediaServerDeps,
    readonly timeZone: string,
  ) {}

  protected get name(): string {
    return PRODUCT_NAMES[this.kind];
  }

  /** Where the other product would answer `/System/Info/Public`, to name it in the error. */
  protected abstract otherProductProbe(): Call;
  abstract createUser(name: string, pw: string): Promise<MediaUser>;
  abstract setPassword(userId: string, pw: string): Promise<void>;
  abstract listUsers(): Promise<MediaUser[]>;
  abstract listDevices(userId?: string): Promise<MediaDevice[]>;
  abstract latestItems(
    userId: string,
    q: { types: ('Movie' | 'Episode')[]; limit: number },
  ): Promise<MediaItem[]>;
  abstract resumeItems(userId: string, limit: number): Promise<MediaItem[]>;
  abstract findByTmdbId(
    tmdbId: number,
    type: 'Movie' | 'Series',
    titleHint?: string,
  ): Promise<MediaItem | null>;
  abstract findManyByTmdbIds(
    tmdbIds: number[],
    type: 'Movie' | 'Series',
    o?: { fresh?: boolean },
  ): Promise<Map<number, MediaItem>>;

  async tmdbIdsInLibrary(tmdbIds: number[], type: 'Movie' | 'Series'): Promise<Set<number>> {
    if (tmdbIds.length === 0) return new Set();
    return new Set((await this.findManyByTmdbIds(tmdbIds, type)).keys());
  }
  /** Query that keeps virtual ("missing") items out, where the server has such a filter. */
  protected abstract missingFilter(): Record<string, boolean>;
  protected abstract sessionsQuery(): Record<string, number>;
  protected abstract sessionDeviceKey(dto: z.infer<typeof SessionSchema>): string | undefined;
  /** Where the message travels: Emby's query (`Text`, `Header`, `TimeoutMs`), Jellyfin's body. */
  protected abstract messagePayload(message: SessionMessage): Pick<Call, 'query' | 'json'>;

  probe(): Promise<ServerInfo> {
    return readServerInfo(this.client, this.otherProductProbe());
  }

  async authenticate(
    name: string,
    pw: string,
    o: { deviceId: string; keepToken?: boolean },
  ): Promise<{ userId: string; token?: string }> {
    const call: Call = {
      op: 'authenticate',
      method: 'POST',
      path: '/Users/AuthenticateByName',
      auth: { as: 'login', deviceId: o.deviceId },
      json: { Username: name, Pw: pw },
      pass: [401, 403],
    };
    const reply = await this.client.send(call);
    // A member's password, not our key: a business "no", never UPSTREAM_AUTH_FAILED.
    if (reply.status === 401) {
      throw this.rejected('authenticate', 'wrong user name or password', 401);
    }
    if (reply.status === 403) {
      const why = 'the account is disabled, locked out or at its session limit';
      throw this.rejected('authenticate', why, 403);
    }
    const result = this.client.parse(reply, call, AuthResultSchema);
    const userId = normaliseId(result.User.Id);
    if (o.keepToken) return { userId, token: result.AccessToken };
    await this.endToken(result.AccessToken);
    return { userId };
  }

  /** Ends a token we only needed to check a password, so it leaves no device behind (§8 risk 9). */
  private async endToken(token: string): Promise<void> {
    const call: Call = {
      op: 'logout',
      method: 'POST',
      path: '/Sessions/Logout',
      auth: { as: 'user', token },
    };
    await this.client.send(call).catch((err: unknown) => {
      // Ignored by design (§1.4): the password was right; a leftover token is only untidy.
      this.deps.logger?.warn({ err: String(err) }, 'media server: ending a check token failed');
    });
  }

  /** A 400 on create user: duplicate or invalid name (Jellyfin allows letters, digits, -'._@+). */
  protected async postNewUser(body: Record<string, string>): Promise<MediaUser> {
    const call: Call = {
      op: 'create_user',
      method: 'POST',
      path: '/Users/New',
      json: body,
      pass: [400],
    };
    const reply = await this.client.send(call);
    if (reply.status === 400) {
      const why = "the name is taken or not allowed (use letters, digits, spaces and - ' . _ @ +)";
      throw this.rejected('create_user', why, 400);
    }
    return toMediaUser(this.client.parse(reply, call, UserSchema));
  }

  async getUser(userId: string): Promise<MediaUser | null> {
    const call: Call = { op: 'get_user', path: `/Users/${seg(normaliseId(userId))}`, pass: [404] };
    const reply = await this.client.send(call);
    if (reply.status === 404) return null;
    return toMediaUser(this.client.parse(reply, call, UserSchema));
  }

  updatePolicy(userId: string, patch: PolicyPatch): Promise<void> {
    return updatePolicyChecked(
      {
        kind: this.kind,
        getUser: (id) => this.getUser(id),
        postPolicy: (id, policy) => this.postPolicy(id, policy),
      },
      userId,
      patch,
    );
  }

  private async postPolicy(userId: string, policy: Record<string, unknown>): Promise<void> {
    const reply = await this.client.send({
      op: 'update_policy',
      method: 'POST',
      path: `/Users/${seg(normaliseId(userId))}/Policy`,
      json: policy,
      pass: [403],
    });
    if (reply.status === 403) {
      const why = 'it does not let an administrator or the last enabled user be disabled';
      throw this.rejected('update_policy', why, 403);
    }
  }

  async deleteUser(userId: string): Promise<void> {
    await this.client.send({
      op: 'delete_user',
      method: 'DELETE',
      path: `/Users/${seg(normaliseId(userId))}`,
      pass: [404],
    });
  }

  async listSessions(): Promise<MediaSession[]> {
    const call: Call = { op: 'list_sessions', path: '/Sessions', query: this.sessionsQuery() };
    const sessions = await this.client.json(call, z.array(SessionSchema));
    return sessions.map((s) => toMediaSession(s, this.sessionDeviceKey(s)));
  }

  async sendSessionMessage(sessionId: string, message: SessionMessage): Promise<boolean> {
    const reply = await this.client.send({
      op: 'session_message',
      method: 'POST',
      path: `/Sessions/${seg(sessionId)}/Message`,
      ...this.messagePayload(message),
      pass: [404],
    });
    return reply.status !== 404;
  }

  async stopPlayback(sessionId: string): Promise<boolean> {
    const reply = await this.client.send({
      op: 'session_stop',
      method: 'POST',
      path: `/Sessions/${seg(sessionId)}/Playing/Stop`,
      // Emby documents a PlaystateRequest body as required; Jellyfin takes none and ignores one.
      ...(this.kind === 'emby' ? { json: { Command: 'Stop' } } : {}),
      pass: [404],
    });
    return reply.status !== 404;
  }

  /**
   * Signs a device out by its list id, in the query (§8 risk 8). An unknown id answers 404
   * (Jellyfin 10.11, Emby) or 400 (Jellyfin 12); then the list decides: gone counts as success.
   */
  async logoutDevice(deviceKey: string): Promise<void> {
    const first = await this.deleteDevice(deviceKey);
    if (first === 'ok') return;
    const devices = await this.listDevices();
    if (devices.some((d) => d.key === deviceKey)) {
      throw this.rejected('logout_device', 'it refused to sign the device out', first);
    }
    // A caller holding the client's DeviceId (Emby lists devices under another Id): use the list's.
    const byClientId = devices.find((d) => d.deviceId === deviceKey);
    const second = byClientId ? await this.deleteDevice(byClientId.key) : 'ok';
    if (second !== 'ok')
      throw this.rejected('logout_device', 'it refused to sign the device out', second);
  }

  private async deleteDevice(key: string): Promise<'ok' | number> {
    const reply = await this.client.send({
      op: 'logout_device',
      method: 'DELETE',
      path: '/Devices',
      // `Id` on Emby; the client sends it as `id` to Jellyfin, as its OpenAPI names it.
      query: { Id: key },
      pass: [400, 404],
    });
    return reply.status < 300 ? 'ok' : reply.status;
  }

  async itemCounts(userId?: string): Promise<ItemCounts> {
    const query = { UserId: userId === undefined ? undefined : normaliseId(userId) };
    const call: Call = { op: 'item_counts', path: '/Items/Counts', query };
    const c = await this.client.json(call, ItemCountsSchema);
    return { movies: c.MovieCount, series: c.SeriesCount, episodes: c.EpisodeCount };
  }

  /** The resume query both servers take (Jellyfin reads the names case-insensitively). */
  protected resumeQuery(limit: number): Call['query'] {
    return {
      Limit: limit,
      MediaTypes: ['Video'],
      Fields: ['ProviderIds', 'DateCreated'],
      EnableUserData: true,
    };
  }

  protected latestQuery(q: { types: string[]; limit: number }): Call['query'] {
    return {
      Limit: q.limit,
      IncludeItemTypes: q.types,
      Fields: ['ProviderIds', 'DateCreated', 'Overview'],
      GroupItems: true,
    };
  }

  async libraries(): Promise<Library[]> {
    const call: Call = {
      op: 'libraries',
      path: '/Library/MediaFolders',
      query: { IsHidden: false },
    };
    const page = await this.client.json(call, LibraryPageSchema);
    return page.Items.map((l) => ({
      // Emby access lists want the Guid; Jellyfin has none and uses the Id (§8 risk 6).
      id: normaliseId(l.Guid ?? l.Id),
      itemId: normaliseId(l.Id),
      name: l.Name,
      ...defined('collectionType', l.CollectionType ?? undefined),
      grantable: !NOT_IN_ACCESS_LISTS.has(l.CollectionType ?? ''),
    }));
  }

  async items(q: ItemsQuery): Promise<Page<MediaItem>> {
    const fields = q.streams ? STREAM_FIELDS : ITEM_FIELDS;
    const map = (items: z.infer<typeof ItemPageSchema>['Items']) =>
      items.map((i) => toMediaItem(i, q.streams === true));
    if (q.ids) {
      const ids = q.ids.map(normaliseId);
      const out: MediaItem[] = [];
      for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
        const query = {
          Ids: ids.slice(i, i + IDS_PER_CALL),
          IncludeItemTypes: q.types,
          UserId: q.userId === undefined ? undefined : normaliseId(q.userId),
          // Lookups by id also bring the genres (the playback portrait's tags).
          Fields: [...fields, 'Genres'],
        };
        const page = await this.client.json({ op: 'items', path: '/Items', query }, ItemPageSchema);
        out.push(...map(page.Items));
      }
      return { items: out, total: out.length, start: 0 };
    }
    const start = q.start ?? 0;
    const query = {
      ParentId: q.parentId === undefined ? undefined : normaliseId(q.parentId),
      Recursive: true,
      IncludeItemTypes: q.types ?? ['Movie', 'Episode'],
      ...this.missingFilter(),
      UserId: q.userId === undefined ? undefined : normaliseId(q.userId),
      StartIndex: start,
      Limit: q.limit ?? 200,
      Fields: fields,
    };
    // A library scan page: three times the normal timeout (§0).
    const call: Call = { op: 'items', path: '/Items', query, slow: true };
    const page = await this.client.json(call, ItemPageSchema);
    return { items: map(page.Items), total: page.TotalRecordCount ?? page.Items.length, start };
  }

  async episodes(seriesId: string, season?: number): Promise<MediaItem[]> {
    const call: Call = {
      op: 'episodes',
      path: `/Shows/${seg(normaliseId(seriesId))}/Episodes`,
      query: { Season: season, ...this.missingFilter(), Fields: ['ProviderIds', 'Path'] },
    };
    const page = await this.client.json(call, ItemPageSchema);
    // Virtual episodes are metadata only; drop them even if the server ignored the filter.
    return page.Items.map((i) => toMediaItem(i)).filter((i) => !i.virtual);
  }

  playbackQuery(sql: string): Promise<PlaybackResult> {
    return runPlaybackQuery(this.client, this.deps, sql);
  }

  /** `GET /Items/{id}/Images/Primary?MaxWidth=&Quality=` (both servers); 404 → null. */
  async primaryImage(itemId: string, maxWidth: number, quality = 90): Promise<ItemImage | null> {
    const reply = await this.client.send({
      op: 'item_image',
      path: `/Items/${seg(normaliseId(itemId))}/Images/Primary`,
      query: { MaxWidth: Math.round(maxWidth), Quality: quality },
      binary: true,
      pass: [404],
    });
    if (reply.status === 404 || !reply.bytes) return null;
    const type = reply.headers.get('content-type') ?? '';
    // Only an image goes back to the browser; anything else is not a poster.
    if (!/^image\/(png|jpeg|webp|gif|avif)\b/i.test(type)) return null;
    return { bytes: reply.bytes, contentType: type.split(';')[0]!.trim().toLowerCase() };
  }

  protected rejected(operation: string, why: string, status: number): IntegrationError {
    return new IntegrationError(
      'media_server',
      operation,
      'rejected',
      `${this.name} refused: ${why}`,
      status,
    );
  }
}
