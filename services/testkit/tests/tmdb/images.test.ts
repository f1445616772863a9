import jpegJs from 'jpeg-js';

import { startFakeTmdb, type FakeTmdb } from '../../src/tmdb/index.js';

/** Reads width and height from a JPEG's SOF0 segment, as an image decoder would. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let i = 2;
  while (i < bytes.length) {
    const marker = bytes[i + 1]!;
    const length = bytes.readUInt16BE(i + 2);
    if (marker === 0xc0)
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  throw new Error('no SOF0 segment');
}

describe('fake TMDB image CDN', () => {
  let tmdb: FakeTmdb;

  beforeAll(async () => {
    tmdb = await startFakeTmdb();
  });
  afterAll(() => tmdb.close());

  it('should serve a poster as a JPEG of the requested width, without auth', async () => {
    const response = await fetch(`${tmdb.imageBase}/w500/poster-438631.jpg`);
    const bytes = Buffer.from(await response.arrayBuffer());

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
    expect(jpegSize(bytes)).toEqual({ width: 500, height: 750 });
  });

  it('should size backdrops 16:9 and originals at full size', async () => {
    const backdrop = await fetch(`${tmdb.imageBase}/w1280/backdrop-438631.jpg`);
    const original = await fetch(`${tmdb.imageBase}/original/poster-438631.jpg`);

    expect(jpegSize(Buffer.from(await backdrop.arrayBuffer()))).toEqual({
      width: 1280,
      height: 720,
    });
    expect(jpegSize(Buffer.from(await original.arrayBuffer()))).toEqual({
      width: 1000,
      height: 1500,
    });
  });

  it('should answer 404 for an unknown file or size', async () => {
    const unknownFile = await fetch(`${tmdb.imageBase}/w500/nothing.jpg`);
    const unknownSize = await fetch(`${tmdb.imageBase}/w501/poster-438631.jpg`);

    expect(unknownFile.status).toBe(404);
    expect(unknownSize.status).toBe(404);
  });

  it('should serve the same bytes for the same file every time', async () => {
    const a = Buffer.from(
      await (await fetch(`${tmdb.imageBase}/w92/got-poster.jpg`)).arrayBuffer(),
    );
    const b = Buffer.from(
      await (await fetch(`${tmdb.imageBase}/w92/got-poster.jpg`)).arrayBuffer(),
    );

    expect(a.equals(b)).toBe(true);
    expect(jpegSize(a)).toEqual({ width: 92, height: 138 });
  });

  it('should draw the title in type: a varied picture with near-white letters low down', async () => {
    const bytes = Buffer.from(
      await (await fetch(`${tmdb.imageBase}/w185/poster-438631.jpg`)).arrayBuffer(),
    );
    const { width, height, data } = jpegJs.decode(bytes);
    let bright = 0;
    for (let y = Math.floor(height * 0.6); y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (data[i]! > 220 && data[i + 1]! > 220 && data[i + 2]! > 220) bright++;
      }
    }
    expect(bright).toBeGreaterThan(width * height * 0.01);
    const other = Buffer.from(
      await (await fetch(`${tmdb.imageBase}/w185/got-poster.jpg`)).arrayBuffer(),
    );
    expect(other.equals(bytes)).toBe(false);
  });
});
