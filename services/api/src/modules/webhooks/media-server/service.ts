import type { MediaServerWebhookReply } from '@usher/contracts';
import { IntegrationError } from '../../../integrations/errors.js';
import type { MediaItem, MediaServer } from '../../../integrations/media-server/port.js';
import { markEpisodesReady } from '../../calendar/index.js';
import type { ModuleContext } from '../../context.js';
import { episodeCode, ingestEpisode, ingestMovie, type IngestActor } from '../../requests/index.js';
import type { NewItemEvent } from './normalise.js';

const SERIES_CACHE_MS = 5 * 60_000;

/** Series item id → its TMDB id, 5 minutes per series (50-integrations.md §2.3), per app. */
const seriesCaches = new WeakMap<object, Map<string, { tmdbId: number | null; until: number }>>();

function seriesCache(ctx: ModuleContext) {
  let cache = seriesCaches.get(ctx);
  if (!cache) {
    cache = new Map();
    seriesCaches.set(ctx, cache);
  }
  return cache;
}

const tmdbOf = (item: MediaItem | undefined): number | undefined => {
  const n = Number(item?.tmdbId);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

async function readItem(server: MediaServer, id: string): Promise<MediaItem | undefined> {
  const page = await server.items({ ids: [id] });
  return page.items.find((i) => i.id === id) ?? page.items[0];
}

/** The show's TMDB id from the series item (an episode's own id belongs to the episode). */
async function showTmdbId(
  ctx: ModuleContext,
  server: MediaServer,
  seriesId: string,
): Promise<number | undefined> {
  const cache = seriesCache(ctx);
  const key = `${server.kind}:${seriesId}`;
  const hit = cache.get(key);
  const now = ctx.now().getTime();
  if (hit && hit.until > now) return hit.tmdbId ?? undefined;
  const tmdbId = tmdbOf(await readItem(server, seriesId)) ?? null;
  // Only known ids are kept: a series still without metadata is asked again next time.
  if (tmdbId !== null) cache.set(key, { tmdbId, until: now + SERIES_CACHE_MS });
  return tmdbId ?? undefined;
}

const ACTOR: IngestActor['actor'] = { type: 'webhook', id: null, label: 'media-server' };

/**
 * Handles one decoded "new item" event (20-api.md §8.5, 50-integrations.md §2.3): movies by TMDB
 * id, episodes by the show's TMDB id (through the series item), re-reading the item when the
 * payload lacks data and answering `deferred` when it still does.
 */
export async function handleNewItem(
  ctx: ModuleContext,
  event: NewItemEvent,
  requestId: string,
): Promise<MediaServerWebhookReply> {
  if (event.sender === 'emby' && event.event === 'system.notificationtest') {
    return { received: true, test: true };
  }
  const handled =
    (event.sender === 'emby' && event.event === 'library.new') ||
    (event.sender === 'jellyfin' && event.event === 'ItemAdded');
  if (!handled || (event.itemType !== 'Movie' && event.itemType !== 'Episode')) {
    return { received: true, ignored: true };
  }
  const by: IngestActor = { actor: ACTOR, meta: { requestId, ip: null } };
  try {
    return event.itemType === 'Movie'
      ? await handleMovie(ctx, event, by)
      : await handleEpisode(ctx, event, by);
  } catch (err) {
    // The media server could not be asked (not configured, down): nothing is stored and the
    // calendar sync's reconcile pass picks the item up later.
    if (!(err instanceof IntegrationError)) throw err;
    ctx.logger.warn({ err: err.message, kind: err.kind }, 'webhook item could not be resolved');
    return { received: true, deferred: true };
  }
}

async function handleMovie(
  ctx: ModuleContext,
  event: NewItemEvent,
  by: IngestActor,
): Promise<MediaServerWebhookReply> {
  let tmdbId = event.itemTmdbId;
  if (tmdbId === undefined && event.itemId) {
    const server = await ctx.integrations.mediaServer.get();
    tmdbId = tmdbOf(await readItem(server, event.itemId));
  }
  if (tmdbId === undefined) return { received: true, deferred: true };
  const requests = await ingestMovie(ctx, tmdbId, by);
  return { received: true, matched: { calendar: 0, requests } };
}

async function handleEpisode(
  ctx: ModuleContext,
  event: NewItemEvent,
  by: IngestActor,
): Promise<MediaServerWebhookReply> {
  const server = await ctx.integrations.mediaServer.get();
  let { seriesId, season, episode, episodeEnd } = event;
  if ((!seriesId || season === undefined || episode === undefined) && event.itemId) {
    const item = await readItem(server, event.itemId);
    seriesId ??= item?.seriesId;
    season ??= item?.season;
    episode ??= item?.episode;
    episodeEnd ??= item?.episodeEnd;
  }
  if (!seriesId || season === undefined || episode === undefined) {
    return { received: true, deferred: true };
  }
  const show = await showTmdbId(ctx, server, seriesId);
  if (show === undefined) return { received: true, deferred: true };
  const last = episodeCode(season, Math.max(episode, episodeEnd ?? episode));
  const calendar = event.itemId
    ? await markEpisodesReady(ctx, {
        showTmdbId: show,
        season,
        episode,
        episodeEnd,
        itemId: event.itemId,
      })
    : 0;
  const requests = await ingestEpisode(
    ctx,
    server,
    { showTmdbId: show, seriesItemId: seriesId, season, last },
    by,
  );
  return { received: true, matched: { calendar, requests } };
}
