// The member's media home (20-api.md "Media"): where to connect, what the library holds, what is
// new for the member's own media account, and the caches behind it and the poster proxy.
import type {
  MediaHomeState,
  MediaLatest,
  MediaLatestQuery,
  MediaResume,
  MediaResumeQuery,
  MediaServerPublic,
  MediaStats,
} from '@usher/contracts';
import type { UserRow } from '../../db/schema/index.js';
import { IntegrationError } from '../../integrations/errors.js';
import {
  normaliseId,
  type ItemImage,
  type MediaServer,
} from '../../integrations/media-server/index.js';
import type { ModuleContext } from '../context.js';
import { isExpired } from '../membership/index.js';
import type { PosterSigner } from './poster-signer.js';
import { requireUser } from './users.js';

const STATS_TTL_MS = 5 * 60_000;
const ACCESS_TTL_MS = 10 * 60_000;
const IMAGE_TTL_MS = 60 * 60_000;
const IMAGE_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const ACCESS_CACHE_MAX = 20_000;

/** The adapter, or null while the media_server group is incomplete. */
export async function serverOrNull(ctx: ModuleContext): Promise<MediaServer | null> {
  try {
    return await ctx.integrations.mediaServer.get();
  } catch (err) {
    if (err instanceof IntegrationError && err.kind === 'not_configured') return null;
    throw err;
  }
}

export async function mediaServerPublic(ctx: ModuleContext): Promise<MediaServerPublic> {
  const store = ctx.settings.store;
  const kind = (await store.getString('MEDIA_SERVER_KIND')) === 'jellyfin' ? 'jellyfin' : 'emby';
  const internal = (await store.getString('MEDIA_SERVER_URL')).trim();
  const key = (await store.getString('MEDIA_SERVER_API_KEY')).trim();
  const publicUrl = (await store.getString('MEDIA_SERVER_PUBLIC_URL')).trim() || internal;
  return { configured: internal !== '' && key !== '', kind, publicUrl: publicUrl || null };
}

/** Per-replica caches of the media home (20-api.md: stats 5 min, poster access 10 min). */
export class MediaHomeCache {
  private counts?: { server: MediaServer; at: number; value: MediaStats };
  private statsInFlight?: Promise<MediaStats>;
  private readonly access = new Map<string, { visible: boolean; until: number }>();
  private readonly posters = new Map<string, { posterItemId: string | null; until: number }>();
  private readonly images = new Map<string, { image: ItemImage; until: number }>();
  private imageBytes = 0;

  async stats(ctx: ModuleContext): Promise<MediaStats> {
    const server = await serverOrNull(ctx);
    if (!server) {
      return { configured: false, movieCount: 0, seriesCount: 0, episodeCount: 0, cachedAt: null };
    }
    const now = ctx.now().getTime();
    // A settings edit builds a new adapter: counts of the old server are not reused.
    if (this.counts && this.counts.server === server && now - this.counts.at < STATS_TTL_MS) {
      return this.counts.value;
    }
    // Concurrent first callers share one upstream read.
    this.statsInFlight ??= (async () => {
      try {
        const c = await server.itemCounts();
        const value: MediaStats = {
          configured: true,
          movieCount: c.movies,
          seriesCount: c.series,
          episodeCount: c.episodes,
          cachedAt: ctx.now().toISOString(),
        };
        this.counts = { server, at: ctx.now().getTime(), value };
        return value;
      } finally {
        this.statsInFlight = undefined;
      }
    })();
    return this.statsInFlight;
  }

  /** Whether the media user may see the item, asked upstream and remembered 10 min. */
  async canSee(ctx: ModuleContext, server: MediaServer, mediaUserId: string, itemId: string) {
    const key = `${server.kind}:${mediaUserId}:${itemId}`;
    const now = ctx.now().getTime();
    const hit = this.access.get(key);
    if (hit && hit.until > now) return hit.visible;
    const page = await server.items({ ids: [itemId], userId: mediaUserId });
    const visible = page.items.some((i) => i.id === itemId);
    if (this.access.size >= ACCESS_CACHE_MAX) this.access.clear();
    this.access.set(key, { visible, until: now + ACCESS_TTL_MS });
    return visible;
  }

  /**
   * For plays (a Playback Reporting row has only the item id): normalised item id → the item whose
   * Primary image is its poster (`MediaItem.posterItemId`), null when there is none or the server
   * no longer knows the item. Asked upstream in one `/Items?Ids=` read, remembered 10 min. When
   * that read fails, each play keeps its own item (the URL may 404 to a placeholder) rather than
   * the plays failing for want of posters.
   */
  async posterItems(
    ctx: ModuleContext,
    server: MediaServer,
    itemIds: string[],
  ): Promise<Map<string, string | null>> {
    const now = ctx.now().getTime();
    const out = new Map<string, string | null>();
    const missing: string[] = [];
    for (const raw of new Set(itemIds.map(normaliseId))) {
      // Only ids the server could have issued: a damaged plugin row must not fail the read.
      if (!/^[0-9a-f]{32}$|^\d{1,20}$/i.test(raw)) continue;
      const hit = this.posters.get(`${server.kind}:${raw}`);
      if (hit && hit.until > now) out.set(raw, hit.posterItemId);
      else missing.push(raw);
    }
    if (missing.length === 0) return out;
    let items;
    try {
      ({ items } = await server.items({ ids: missing }));
    } catch (err) {
      if (!(err instanceof IntegrationError)) throw err;
      for (const id of missing) out.set(id, id);
      return out;
    }
    const found = new Map(items.map((i) => [i.id, i.posterItemId ?? null]));
    if (this.posters.size >= ACCESS_CACHE_MAX) this.posters.clear();
    for (const id of missing) {
      const posterItemId = found.get(id) ?? null;
      out.set(id, posterItemId);
      this.posters.set(`${server.kind}:${id}`, { posterItemId, until: now + ACCESS_TTL_MS });
    }
    return out;
  }

  async image(
    ctx: ModuleContext,
    server: MediaServer,
    itemId: string,
    width: number,
    quality?: number,
  ) {
    const key = `${server.kind}:${itemId}:${width}:${quality ?? ''}`;
    const now = ctx.now().getTime();
    const hit = this.images.get(key);
    if (hit && hit.until > now) return hit.image;
    const image = await server.primaryImage(itemId, width, quality);
    if (!image) return null;
    this.remember(key, image, now);
    return image;
  }

  private remember(key: string, image: ItemImage, now: number) {
    if (image.bytes.length > IMAGE_CACHE_MAX_BYTES / 8) return;
    const old = this.images.get(key);
    if (old) this.imageBytes -= old.image.bytes.length;
    this.images.delete(key);
    // Oldest first out (Map keeps insertion order) until the new one fits.
    for (const [k, v] of this.images) {
      if (this.imageBytes + image.bytes.length <= IMAGE_CACHE_MAX_BYTES) break;
      this.images.delete(k);
      this.imageBytes -= v.image.bytes.length;
    }
    this.images.set(key, { image, until: now + IMAGE_TTL_MS });
    this.imageBytes += image.bytes.length;
  }
}

/** The media state of the member's own account, for the home page. */
export function homeState(row: UserRow, now: Date, configured: boolean): MediaHomeState {
  if (!configured) return 'not_configured';
  if (!row.mediaUserId) return 'unlinked';
  if (row.role === 'admin') return 'ok';
  if (row.mediaAccessDisabled) return 'disabled';
  if (isExpired(row, now)) return 'expired';
  return 'ok';
}

/**
 * A member's home state, and (only when it is `ok`) their server and media account: the rails
 * show nothing to an expired, disabled or unlinked member.
 */
async function memberHome(ctx: ModuleContext, userId: string) {
  const row = await requireUser(ctx.db, userId);
  const server = await serverOrNull(ctx);
  const state = homeState(row, ctx.now(), server !== null);
  const ready =
    state === 'ok' && server && row.mediaUserId ? { server, mediaUserId: row.mediaUserId } : null;
  return { row, state, ready };
}

export async function latestForUser(
  ctx: ModuleContext,
  signer: PosterSigner,
  userId: string,
  query: MediaLatestQuery,
): Promise<MediaLatest> {
  const { row, state, ready } = await memberHome(ctx, userId);
  if (!ready) return { state, items: [] };
  // Series: new episodes grouped by show (GroupItems=true), as the servers' own home rails do.
  const types: ('Movie' | 'Episode')[] = query.type === 'movie' ? ['Movie'] : ['Episode'];
  const items = await ready.server.latestItems(ready.mediaUserId, { types, limit: query.limit });
  const now = ctx.now();
  return {
    state,
    items: items.map((i) => ({
      itemId: i.id,
      name: i.name,
      type: i.type,
      year: i.year ?? null,
      ...(i.seriesName ? { seriesName: i.seriesName } : {}),
      addedAt: i.createdAt ?? null,
      // The contract wants a URL for every item: one with no image at all keeps its own, which
      // answers 404 and the page draws the placeholder (docs/media.md "Posters").
      posterUrl: signer.url(row, i.posterItemId ?? i.id, now),
    })),
  };
}

/**
 * "Continue watching" (issue 36): the member's own resume points on the media server, newest
 * first, with signed posters (an episode shows its show's). Same states as the latest rail: an
 * expired, disabled or unlinked member gets the state and no items.
 */
export async function resumeForUser(
  ctx: ModuleContext,
  signer: PosterSigner,
  userId: string,
  query: MediaResumeQuery,
): Promise<MediaResume> {
  const { row, state, ready } = await memberHome(ctx, userId);
  if (!ready) return { state, items: [] };
  const items = await ready.server.resumeItems(ready.mediaUserId, query.limit);
  const now = ctx.now();
  return {
    state,
    items: items.flatMap((i) =>
      i.resume
        ? [
            {
              itemId: i.id,
              name: i.name,
              type: i.type,
              year: i.year ?? null,
              ...(i.seriesName ? { seriesName: i.seriesName } : {}),
              ...(i.season !== undefined ? { season: i.season } : {}),
              ...(i.episode !== undefined ? { episode: i.episode } : {}),
              positionSeconds: i.resume.positionSeconds,
              runtimeSeconds: i.runtimeSeconds === undefined ? null : Math.round(i.runtimeSeconds),
              percent: i.resume.percent ?? null,
              lastPlayedAt: i.resume.lastPlayedAt ?? null,
              posterUrl: signer.url(row, i.posterItemId ?? i.id, now),
            },
          ]
        : [],
    ),
  };
}

/** Jellyfin ids arrive with or without dashes; Usher hands them out without. */
export function normaliseItemId(raw: string): string {
  return /^[0-9a-f-]{36}$/i.test(raw) ? raw.replace(/-/g, '').toLowerCase() : raw.toLowerCase();
}
