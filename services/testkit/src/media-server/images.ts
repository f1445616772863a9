// Poster endpoint. The API proxies posters, so the fake returns real, decodable images: the
// item's name set in type over a seeded gradient (art/), sized by the query parameters both
// servers take (`maxWidth`, `maxHeight`, `width`, `height`, `fillWidth`, `fillHeight`,
// `quality`, `format`). Like the real servers (whose posters come from TMDB as JPEG), the answer is
// a JPEG unless `format=png` asks otherwise.
import { drawArt, encodeJpeg, encodePng } from '../art/index.js';
import { imageTag } from './item-dto.js';
import { notFound } from './http.js';
import type { Ctx, Query, Reply, Route } from './http.js';
import { normaliseId } from './state.js';
import type { FakeItem } from './types.js';

/** The size the servers keep a poster at; requests scale it down, never up. */
export const POSTER_ORIGINAL = { width: 600, height: 900 } as const;

/**
 * The output size for a request, as the servers compute it: `width`/`height` fix a side, the
 * `max*` pair bound it, the `fill*` pair ask for the smallest size covering that box; the
 * aspect ratio is kept and the original is never enlarged.
 */
export function posterSize(query: Query): { width: number; height: number } {
  const { width: w0, height: h0 } = POSTER_ORIGINAL;
  const positive = (name: string) => {
    const v = query.int(name);
    return v !== undefined && v > 0 ? v : undefined;
  };
  let scale = 1;
  const width = positive('width');
  const height = positive('height');
  if (width !== undefined) scale = width / w0;
  else if (height !== undefined) scale = height / h0;
  const fillWidth = positive('fillWidth');
  const fillHeight = positive('fillHeight');
  if (fillWidth !== undefined || fillHeight !== undefined) {
    scale = Math.max((fillWidth ?? 0) / w0, (fillHeight ?? 0) / h0);
  }
  const maxWidth = positive('maxWidth');
  const maxHeight = positive('maxHeight');
  if (maxWidth !== undefined) scale = Math.min(scale, maxWidth / w0);
  if (maxHeight !== undefined) scale = Math.min(scale, maxHeight / h0);
  scale = Math.min(1, scale);
  return {
    width: Math.max(1, Math.round(w0 * scale)),
    height: Math.max(1, Math.round(h0 * scale)),
  };
}

/** The picture for an item: its own name, the show's name above an episode's. */
function artFor(item: FakeItem) {
  const kicker =
    item.type === 'Episode' || item.type === 'Season'
      ? item.seriesName
      : item.productionYear !== undefined
        ? String(item.productionYear)
        : undefined;
  return { seed: item.id, title: item.name, kicker };
}

// Drawing is the slow part; the same item at the same size is the same picture.
const drawn = new Map<string, { type: string; bytes: Buffer }>();

function image(ctx: Ctx, withBody: boolean): Reply {
  const { state } = ctx;
  const id = normaliseId(state, ctx.params['id'] ?? '');
  const item = id === null ? undefined : state.items.get(id);
  const type = (ctx.params['type'] ?? '').toLowerCase();
  if (!item || type !== 'primary' || !item.hasPrimaryImage) return notFound(state, 'Image');
  const size = posterSize(ctx.query);
  const format = (ctx.query.get('format') ?? '').toLowerCase();
  const jpeg = format !== 'png';
  const quality = Math.min(100, Math.max(1, ctx.query.int('quality') ?? 90));
  const key = `${item.id}|${item.name}|${size.width}x${size.height}|${jpeg ? quality : 'png'}`;
  let hit = drawn.get(key);
  if (!hit) {
    const rgb = drawArt({ ...artFor(item), ...size });
    hit = jpeg
      ? { type: 'image/jpeg', bytes: encodeJpeg(rgb, quality) }
      : { type: 'image/png', bytes: encodePng(rgb) };
    if (drawn.size >= 256) drawn.delete(drawn.keys().next().value!);
    drawn.set(key, hit);
  }
  return {
    status: 200,
    headers: {
      'content-type': hit.type,
      'content-length': String(hit.bytes.length),
      'cache-control': 'public, max-age=31536000',
      etag: `"${imageTag(item.id)}"`,
    },
    ...(withBody ? { body: hit.bytes } : {}),
  };
}

// Both servers serve images anonymously so that <img> tags work without a token.
export const imageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/Items/{id}/Images/{type}',
    auth: 'anon',
    handler: (c) => image(c, true),
  },
  {
    method: 'HEAD',
    path: '/Items/{id}/Images/{type}',
    auth: 'anon',
    handler: (c) => image(c, false),
  },
  {
    method: 'GET',
    path: '/Items/{id}/Images/{type}/{index}',
    auth: 'anon',
    handler: (c) => image(c, true),
  },
];
