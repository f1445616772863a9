// Control API under `/__fake/*` (50-integrations.md §1.8) for processes that cannot reach the
// in-memory state directly, such as the demo. No auth, no faults, not in the request log.
import { z } from 'zod';

import { json, noContent } from './http.js';
import type { Reply } from './http.js';
import { itemDto } from './item-dto.js';
import { seedMediaLibrary } from './seed.js';
import { addItem, addLibrary, addLiveSession, addUser, normaliseId, setUserData } from './state.js';
import { sessionDto } from './sessions.js';
import type { FakeItem, MediaState } from './types.js';
import { userDto } from './users.js';
import { emitItemAdded } from './webhooks.js';

const VideoInput = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  codec: z.enum(['h264', 'hevc', 'av1', 'vp9', 'mpeg2video']).default('h264'),
  hdr: z.enum(['SDR', 'HDR10', 'HDR10Plus', 'HLG', 'DolbyVision']).default('SDR'),
});

const ItemInput = z.object({
  type: z.enum(['Movie', 'Episode']),
  name: z.string().min(1),
  libraryId: z.string().optional(),
  year: z.number().int().optional(),
  tmdbId: z.string().optional(),
  seriesId: z.string().optional(),
  season: z.number().int().optional(),
  episode: z.number().int().optional(),
  episodeEnd: z.number().int().optional(),
  video: VideoInput.optional(),
  /** Whether to fire the configured webhook (default: when a URL is configured). */
  webhook: z.boolean().optional(),
});

const UserInput = z.object({
  name: z.string().min(1),
  password: z.string().default(''),
  admin: z.boolean().optional(),
  disabled: z.boolean().optional(),
});

const LiveSessionInputSchema = z.object({
  userId: z.string().min(1),
  deviceId: z.string().min(1),
  remoteEndPoint: z.string().min(1),
  deviceName: z.string().optional(),
  client: z.string().optional(),
  itemId: z.string().optional(),
});

const WebhookInput = z.object({
  url: z.url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  embyFormat: z.enum(['multipart', 'json']).optional(),
  jellyfinFormat: z.enum(['json', 'text']).optional(),
  jellyfinTemplate: z.string().optional(),
});

const FaultInput = z.object({
  delayMs: z.number().int().min(0).optional(),
  rules: z
    .array(
      z.object({
        path: z.string().optional(),
        method: z.string().optional(),
        status: z.number().int().optional(),
        delayMs: z.number().int().optional(),
        reset: z.boolean().optional(),
        times: z.number().int().optional(),
      }),
    )
    .optional(),
});

function seasonFor(state: MediaState, series: FakeItem, n: number): FakeItem {
  const found = [...state.items.values()].find(
    (i) => i.type === 'Season' && i.seriesId === series.id && i.indexNumber === n,
  );
  return (
    found ??
    addItem(state, {
      type: 'Season',
      name: `Season ${n}`,
      libraryId: series.libraryId,
      parentId: series.id,
      seriesId: series.id,
      seriesName: series.name,
      indexNumber: n,
      dateCreated: state.now(),
      providerIds: {},
    })
  );
}

async function addItemAndNotify(state: MediaState, body: unknown): Promise<Reply> {
  const input = ItemInput.parse(body);
  const video = input.video
    ? {
        ...input.video,
        bitDepth: input.video.hdr === 'SDR' ? 8 : 10,
        bitRate: 10_000_000,
        frameRate: 23.976,
      }
    : undefined;
  let item: FakeItem;
  if (input.type === 'Episode') {
    const series = input.seriesId
      ? state.items.get(normaliseId(state, input.seriesId) ?? '')
      : undefined;
    if (!series || series.type !== 'Series')
      return json(400, { error: 'seriesId must name a series' });
    const season = seasonFor(state, series, input.season ?? 1);
    item = addItem(state, {
      type: 'Episode',
      name: input.name,
      libraryId: series.libraryId,
      parentId: season.id,
      seriesId: series.id,
      seriesName: series.name,
      seasonId: season.id,
      seasonName: season.name,
      parentIndexNumber: input.season ?? 1,
      indexNumber: input.episode ?? 1,
      ...(input.episodeEnd ? { indexNumberEnd: input.episodeEnd } : {}),
      dateCreated: state.now(),
      providerIds: input.tmdbId ? { Tmdb: input.tmdbId } : {},
      path: `${series.path ?? ''}/${input.name}.mkv`,
      container: 'mkv',
      ...(video ? { video } : {}),
    });
  } else {
    const lib = input.libraryId
      ? state.libraries.get(normaliseId(state, input.libraryId) ?? '')
      : [...state.libraries.values()].find((l) => l.collectionType === 'movies');
    if (!lib) return json(400, { error: 'no movie library; seed or pass libraryId' });
    item = addItem(state, {
      type: 'Movie',
      name: input.name,
      libraryId: lib.id,
      parentId: lib.id,
      ...(input.year ? { productionYear: input.year } : {}),
      dateCreated: state.now(),
      providerIds: input.tmdbId ? { Tmdb: input.tmdbId } : {},
      path: `${lib.path}/${input.name}.mkv`,
      container: 'mkv',
      ...(video ? { video } : {}),
    });
  }
  const fire = input.webhook ?? state.webhook.url !== undefined;
  let webhook: { status: number } | { error: string } | undefined;
  if (fire && state.webhook.url) {
    const { url, headers, embyFormat, jellyfinFormat, jellyfinTemplate } = state.webhook;
    const format = state.flavour === 'emby' ? embyFormat : jellyfinFormat;
    try {
      const d = await emitItemAdded(state, item.id, url, {
        format,
        ...(headers ? { headers } : {}),
        ...(jellyfinTemplate ? { template: jellyfinTemplate } : {}),
      });
      webhook = { status: d.status };
    } catch (err) {
      // The receiver may be down; the item is still added, as on a real server.
      webhook = { error: err instanceof Error ? err.message : String(err) };
    }
  }
  const fields = new Set(['providerids', 'path', 'datecreated', 'mediastreams']);
  return json(201, { item: itemDto(state, item, fields), ...(webhook ? { webhook } : {}) });
}

/** Answers a `/__fake/*` request; null when the path is not a control path. */
export async function handleControl(
  state: MediaState,
  method: string,
  path: string,
  body: unknown,
): Promise<Reply | null> {
  const route = `${method} ${path.replace(/\/+$/, '')}`;
  try {
    switch (route) {
      case 'GET /__fake/requests':
        return json(200, state.requests);
      case 'DELETE /__fake/requests':
        state.requests.length = 0;
        return noContent();
      case 'GET /__fake/state':
        return json(200, {
          flavour: state.flavour,
          mode: state.mode,
          version: state.version,
          users: state.users.size,
          libraries: state.libraries.size,
          items: state.items.size,
          devices: state.devices.size,
          sessions: state.sessions.size,
        });
      case 'POST /__fake/seed': {
        const seeded = seedMediaLibrary(state);
        return json(201, {
          libraries: Object.fromEntries(
            Object.entries(seeded.libraries).map(([k, l]) => [k, l.id]),
          ),
          tokens: seeded.tokens,
        });
      }
      case 'POST /__fake/users': {
        const u = UserInput.parse(body);
        return json(201, userDto(state, addUser(state, u)));
      }
      case 'POST /__fake/libraries': {
        const l = z
          .object({
            name: z.string(),
            collectionType: z.enum(['movies', 'tvshows', 'boxsets', 'playlists', 'music']),
          })
          .parse(body);
        return json(201, { Id: addLibrary(state, l).id });
      }
      case 'POST /__fake/items':
        return await addItemAndNotify(state, body);
      case 'POST /__fake/sessions': {
        const input = LiveSessionInputSchema.parse(body);
        const userId = normaliseId(state, input.userId) ?? input.userId;
        if (!state.users.has(userId)) return json(400, { error: 'unknown userId' });
        const itemId = input.itemId ? (normaliseId(state, input.itemId) ?? undefined) : undefined;
        const session = addLiveSession(state, { ...input, userId, ...(itemId ? { itemId } : {}) });
        return json(201, sessionDto(state, session));
      }
      case 'PUT /__fake/user-data': {
        // Where a user stopped in an item (the demo's "continue watching").
        const input = z
          .object({
            userId: z.string().min(1),
            itemId: z.string().min(1),
            positionTicks: z.number().int().min(0),
            lastPlayedDate: z.iso.datetime().optional(),
            played: z.boolean().optional(),
          })
          .parse(body);
        const userId = normaliseId(state, input.userId) ?? input.userId;
        const itemId = normaliseId(state, input.itemId) ?? input.itemId;
        if (!state.users.has(userId)) return json(400, { error: 'unknown userId' });
        if (!state.items.has(itemId)) return json(400, { error: 'unknown itemId' });
        setUserData(state, userId, itemId, {
          positionTicks: input.positionTicks,
          ...(input.lastPlayedDate ? { lastPlayedDate: new Date(input.lastPlayedDate) } : {}),
          ...(input.played !== undefined ? { played: input.played } : {}),
        });
        return noContent();
      }
      case 'GET /__fake/session-commands':
        return json(200, state.sessionCommands);
      case 'PUT /__fake/webhook':
        Object.assign(state.webhook, WebhookInput.parse(body));
        return noContent();
      case 'PUT /__fake/faults': {
        const f = FaultInput.parse(body);
        state.faults.delayMs = f.delayMs ?? 0;
        state.faults.rules = f.rules ?? [];
        return noContent();
      }
      case 'PUT /__fake/playback':
        state.playback.installed = z.object({ installed: z.boolean() }).parse(body).installed;
        return noContent();
      default:
        return path.startsWith('/__fake')
          ? json(404, { error: `unknown control route ${route}` })
          : null;
    }
  } catch (err) {
    // Control inputs are validated with zod; report what was wrong to the caller.
    if (err instanceof z.ZodError) return json(400, { error: err.issues });
    throw err;
  }
}
