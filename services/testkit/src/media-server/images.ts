// Poster endpoint. The API proxies posters, so the fake returns real, decodable PNG bytes.
import { deflateSync } from 'node:zlib';

import { imageTag } from './item-dto.js';
import { notFound } from './http.js';
import type { Ctx, Reply, Route } from './http.js';
import { hexId, normaliseId } from './state.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([len, typed, crc]);
}

/** A solid-colour RGB PNG; the colour comes from the seed so each poster differs. */
export function posterPng(seed: string, width = 60, height = 90): Buffer {
  const hex = hexId(seed);
  const rgb = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, default compression/filter/interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function image(ctx: Ctx, withBody: boolean): Reply {
  const { state } = ctx;
  const id = normaliseId(state, ctx.params['id'] ?? '');
  const item = id === null ? undefined : state.items.get(id);
  const type = (ctx.params['type'] ?? '').toLowerCase();
  if (!item || type !== 'primary' || !item.hasPrimaryImage) return notFound(state, 'Image');
  const png = posterPng(item.id);
  return {
    status: 200,
    headers: {
      'content-type': 'image/png',
      'content-length': String(png.length),
      'cache-control': 'public, max-age=31536000',
      etag: `"${imageTag(item.id)}"`,
    },
    ...(withBody ? { body: png } : {}),
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
