// Encoders for the demo art: PNG (the media-server fake) and baseline JPEG (the TMDB image CDN).
import { deflateSync } from 'node:zlib';
import jpegJs from 'jpeg-js';

import type { Rgb } from './poster.js';

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

/** An 8-bit truecolour PNG; every row uses the "Up" filter, which suits vertical gradients. */
export function encodePng({ width, height, data }: Rgb): Buffer {
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    raw[out] = 2;
    for (let x = 0; x < stride; x++) {
      const above = y > 0 ? data[(y - 1) * stride + x]! : 0;
      raw[out + 1 + x] = (data[y * stride + x]! - above) & 0xff;
    }
  }
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

/** A baseline JPEG at `quality` (1–100). */
export function encodeJpeg({ width, height, data }: Rgb, quality = 85): Buffer {
  const rgba = Buffer.alloc(width * height * 4, 255);
  for (let i = 0, j = 0; i < data.length; i += 3, j += 4) data.copy(rgba, j, i, i + 3);
  return Buffer.from(jpegJs.encode({ data: rgba, width, height }, quality).data);
}
