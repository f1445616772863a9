import { inflateSync } from 'node:zlib';
import jpegJs from 'jpeg-js';

import { drawArt, encodeJpeg, encodePng } from '../../src/art/index.js';

/** Decodes the PNGs encodePng writes (8-bit RGB, "Up" filter) back to pixels. */
function decodePng(png: Buffer) {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT')
      idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  const data = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (stride + 1)]).toBe(2);
    for (let x = 0; x < stride; x++) {
      const above = y > 0 ? data[(y - 1) * stride + x]! : 0;
      data[y * stride + x] = (raw[y * (stride + 1) + 1 + x]! + above) & 0xff;
    }
  }
  return { width, height, data };
}

const brightShare = (data: Uint8Array, channels: number, from: number, to: number) => {
  let bright = 0;
  let all = 0;
  for (let i = from * channels; i < to * channels; i += channels, all++) {
    if (data[i]! > 225 && data[i + 1]! > 225 && data[i + 2]! > 225) bright++;
  }
  return bright / all;
};

describe('demo art', () => {
  it('should set the title in near-white type over the lower part of a gradient', () => {
    const art = drawArt({
      seed: 'dune',
      title: 'Dune: Part Two',
      kicker: '2024',
      width: 200,
      height: 300,
    });
    const pixels = art.width * art.height;
    // Type sits in the bottom third; the top half is gradient and glow only.
    expect(brightShare(art.data, 3, Math.floor(pixels * (2 / 3)), pixels)).toBeGreaterThan(0.05);
    expect(brightShare(art.data, 3, 0, pixels / 2)).toBe(0);
    const colours = new Set<number>();
    for (let i = 0; i < art.data.length; i += 3) {
      colours.add((art.data[i]! << 16) | (art.data[i + 1]! << 8) | art.data[i + 2]!);
    }
    expect(colours.size).toBeGreaterThan(500);
  });

  it('should draw the same picture for the same input and another for another title or seed', () => {
    const input = { seed: 's', title: 'Arrival', width: 60, height: 90 };
    expect(drawArt(input).data.equals(drawArt(input).data)).toBe(true);
    expect(drawArt({ ...input, title: 'Amélie' }).data.equals(drawArt(input).data)).toBe(false);
    expect(drawArt({ ...input, seed: 't' }).data.equals(drawArt(input).data)).toBe(false);
  });

  it('should shrink a long title until it fits the width', () => {
    const title = 'Extraordinarily Long Unbreakable Supercalifragilistic Title';
    const art = drawArt({ seed: 'x', title, width: 120, height: 180 });
    // The side margins (8 % each side) stay clear of type.
    for (let y = 0; y < art.height; y++) {
      for (const x of [0, 1, 2, art.width - 3, art.width - 2, art.width - 1]) {
        const i = (y * art.width + x) * 3;
        expect(Math.min(art.data[i]!, art.data[i + 1]!, art.data[i + 2]!)).toBeLessThan(225);
      }
    }
  });

  it('should encode the same pixels as PNG and as a decodable JPEG', () => {
    const art = drawArt({
      seed: 'p',
      title: 'Oppenheimer',
      kicker: '2023',
      width: 90,
      height: 135,
    });
    const png = encodePng(art);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(decodePng(png).data.equals(art.data)).toBe(true);
    const jpeg = jpegJs.decode(encodeJpeg(art, 90));
    expect([jpeg.width, jpeg.height]).toEqual([90, 135]);
    let error = 0;
    for (let i = 0, j = 0; i < art.data.length; i += 3, j += 4) {
      error += Math.abs(art.data[i]! - jpeg.data[j]!);
    }
    expect(error / (art.width * art.height)).toBeLessThan(8);
  });
});
