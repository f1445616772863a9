// Demo art: a poster (2:3) or backdrop (16:9) with the title set in type over a seeded gradient,
// so the demo and screenshots look like a library rather than a wall of flat colour. Pure
// TypeScript (outlines from glyphs.ts, a scanline rasteriser), drawn into raw RGB pixels; png.ts
// and jpeg.ts encode them.
import { createHash } from 'node:crypto';

import { GLYPH_CHARS, GLYPH_DATA, GLYPH_EM } from './glyphs.js';

export interface ArtInput {
  /** Seeds the colours; the same seed always draws the same picture. */
  seed: string;
  title: string;
  /** A line above the title (the year, say); optional. */
  kicker?: string | undefined;
  width: number;
  height: number;
}

/** Raw 8-bit RGB pixels, row by row. */
export interface Rgb {
  width: number;
  height: number;
  data: Buffer;
}

type Point = [number, number];
interface Glyph {
  advance: number;
  /** Flattened outlines in em units (y up). */
  polygons: Point[][];
}

let glyphs: Map<string, Glyph> | undefined;

/** Quadratic TrueType contour → polygon (consecutive off-curve points imply an on-curve midpoint). */
function flatten(points: [number, number, boolean][]): Point[] {
  const n = points.length;
  const firstOn = points.findIndex((p) => p[2]);
  const rotated =
    firstOn >= 0 ? [...points.slice(firstOn), ...points.slice(0, firstOn)] : points.slice();
  if (firstOn < 0) {
    const [a, b] = [points[0]!, points[1 % n]!];
    rotated.unshift([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, true]);
  }
  const out: Point[] = [[rotated[0]![0], rotated[0]![1]]];
  let prev = rotated[0]!;
  for (let i = 1; i <= rotated.length; i++) {
    const p = rotated[i % rotated.length]!;
    if (p[2]) {
      out.push([p[0], p[1]]);
      prev = p;
      continue;
    }
    const next = rotated[(i + 1) % rotated.length]!;
    const end: [number, number, boolean] = next[2]
      ? next
      : [(p[0] + next[0]) / 2, (p[1] + next[1]) / 2, true];
    for (let s = 1; s <= 4; s++) {
      const t = s / 4;
      const u = 1 - t;
      out.push([
        u * u * prev[0] + 2 * u * t * p[0] + t * t * end[0],
        u * u * prev[1] + 2 * u * t * p[1] + t * t * end[1],
      ]);
    }
    prev = end;
    if (next[2]) i++;
  }
  return out;
}

function loadGlyphs(): Map<string, Glyph> {
  if (glyphs) return glyphs;
  const bytes = Buffer.from(GLYPH_DATA, 'base64');
  const map = new Map<string, Glyph>();
  let p = 0;
  for (const ch of GLYPH_CHARS) {
    const advance = bytes[p++]! / GLYPH_EM;
    const polygons: Point[][] = [];
    for (let c = bytes[p++]!; c > 0; c--) {
      const pts: [number, number, boolean][] = [];
      for (let k = bytes[p++]!; k > 0; k--, p += 3) {
        pts.push([
          (bytes[p]! - 32) / GLYPH_EM,
          (bytes[p + 1]! - 64) / GLYPH_EM,
          bytes[p + 2] === 1,
        ]);
      }
      polygons.push(flatten(pts));
    }
    map.set(ch, { advance, polygons });
  }
  glyphs = map;
  return map;
}

/** Characters the font lacks are drawn as their unaccented letter or dropped. */
function glyphOf(ch: string): Glyph | undefined {
  const map = loadGlyphs();
  return map.get(ch) ?? map.get(ch.normalize('NFD').charAt(0));
}

/** Width of `text` in em at the given letter spacing (em). */
function measure(text: string, tracking = 0): number {
  let w = 0;
  for (const ch of text) w += (glyphOf(ch)?.advance ?? 0.3) + tracking;
  return w - (text.length > 0 ? tracking : 0);
}

/** Greedy word wrap at `maxEm` em per line. */
function wrap(text: string, maxEm: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measure(candidate) > maxEm) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/** Coverage mask (0–1 per pixel) for polygons in pixel space, non-zero winding, 4× vertical AA. */
class Mask {
  readonly cov: Float32Array;
  readonly width: number;
  readonly height: number;
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.cov = new Float32Array(width * height);
  }

  fill(polygons: Point[][]) {
    const SS = 4;
    // Edges as flat arrays (x at top, y top, y bottom, dx/dy, direction), top-down.
    const ex: number[] = [];
    const ey0: number[] = [];
    const ey1: number[] = [];
    const slope: number[] = [];
    const dir: number[] = [];
    let minY = Infinity;
    let maxY = -Infinity;
    for (const poly of polygons) {
      for (let i = 0; i < poly.length; i++) {
        const [x0, y0] = poly[i]!;
        const [x1, y1] = poly[(i + 1) % poly.length]!;
        if (y0 === y1) continue;
        const down = y0 < y1;
        const [ax, ay, by] = down ? [x0, y0, y1] : [x1, y1, y0];
        ex.push(ax);
        ey0.push(ay);
        ey1.push(by);
        slope.push((x1 - x0) / (y1 - y0));
        dir.push(down ? 1 : -1);
        minY = Math.min(minY, ay);
        maxY = Math.max(maxY, by);
      }
    }
    const top = Math.max(0, Math.floor(minY));
    const bottom = Math.min(this.height - 1, Math.ceil(maxY));
    const xs = new Float64Array(ex.length);
    const ds = new Int8Array(ex.length);
    for (let y = top; y <= bottom; y++) {
      for (let s = 0; s < SS; s++) {
        const sy = y + (s + 0.5) / SS;
        let n = 0;
        for (let e = 0; e < ex.length; e++) {
          if (sy < ey0[e]! || sy >= ey1[e]!) continue;
          const x = ex[e]! + (sy - ey0[e]!) * slope[e]!;
          // Insertion sort: a scanline crosses a handful of edges.
          let k = n++;
          while (k > 0 && xs[k - 1]! > x) {
            xs[k] = xs[k - 1]!;
            ds[k] = ds[k - 1]!;
            k--;
          }
          xs[k] = x;
          ds[k] = dir[e]!;
        }
        let winding = 0;
        for (let i = 0; i < n - 1; i++) {
          winding += ds[i]!;
          if (winding !== 0) this.span(y, xs[i]!, xs[i + 1]!, 1 / SS);
        }
      }
    }
  }

  /** Adds `weight` × the horizontal coverage of [x0, x1) to row y. */
  private span(y: number, x0: number, x1: number, weight: number) {
    const a = Math.max(0, x0);
    const b = Math.min(this.width, x1);
    if (b <= a) return;
    const row = y * this.width;
    const ia = Math.floor(a);
    const ib = Math.floor(b);
    if (ia === ib) {
      this.cov[row + ia]! += (b - a) * weight;
      return;
    }
    this.cov[row + ia]! += (ia + 1 - a) * weight;
    for (let x = ia + 1; x < ib; x++) this.cov[row + x]! += weight;
    if (ib < this.width) this.cov[row + ib]! += (b - ib) * weight;
  }

  /** Sets `text` with its left edge at x and baseline at y, `size` px per em. */
  text(text: string, x: number, baseline: number, size: number, tracking = 0) {
    const polygons: Point[][] = [];
    let pen = x;
    for (const ch of text) {
      const glyph = glyphOf(ch);
      for (const poly of glyph?.polygons ?? []) {
        polygons.push(poly.map(([gx, gy]) => [pen + gx * size, baseline - gy * size]));
      }
      pen += ((glyph?.advance ?? 0.3) + tracking) * size;
    }
    this.fill(polygons);
  }
}

/** HSL (0–360, 0–1, 0–1) → RGB 0–255. */
function hsl(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** Draws the picture: a seeded two-colour gradient with a soft glow, the title in white type. */
export function drawArt(input: ArtInput): Rgb {
  const { width, height } = input;
  const seed = createHash('sha256').update(input.seed).digest();
  const hue = (seed[0]! / 255) * 360;
  const hue2 = (hue + 25 + (seed[1]! / 255) * 70) % 360;
  const top = hsl(hue, 0.55, 0.42);
  const bottom = hsl(hue2, 0.6, 0.1);
  const glow = hsl((hue + 340) % 360, 0.85, 0.72);
  const gx = (0.2 + (seed[2]! / 255) * 0.6) * width;
  const gy = (0.15 + (seed[3]! / 255) * 0.3) * height;
  const gr = Math.max(width, height) * (0.35 + (seed[4]! / 255) * 0.25);
  const landscape = width > height;

  // Type: the title wrapped to at most three lines, as large as fits.
  const margin = width * 0.08;
  const maxEm = (size: number) => (width - 2 * margin) / size;
  let size = (landscape ? height * 0.16 : width * 0.17) * 1.0;
  let lines = wrap(input.title, maxEm(size));
  while (
    size > 6 &&
    (lines.length > 3 || lines.some((l) => measure(l) * size > width - 2 * margin))
  ) {
    size *= 0.9;
    lines = wrap(input.title, maxEm(size));
  }
  const lineHeight = size * 1.05;
  const mask = new Mask(width, height);
  const blockBottom = height - (landscape ? height * 0.12 : height * 0.1);
  const firstBaseline = blockBottom - (lines.length - 1) * lineHeight;
  lines.forEach((line, i) => {
    const w = measure(line) * size;
    const x = landscape ? margin : (width - w) / 2;
    mask.text(line, x, firstBaseline + i * lineHeight, size);
  });
  const small = new Mask(width, height);
  if (input.kicker) {
    const ks = Math.max(6, size * 0.32);
    const tracking = 0.18;
    const w = measure(input.kicker, tracking) * ks;
    const x = landscape ? margin : (width - w) / 2;
    small.text(input.kicker, x, firstBaseline - size * 0.95, ks, tracking);
  }

  const data = Buffer.alloc(width * height * 3);
  const shadowDx = Math.max(1, Math.round(size * 0.04));
  const cov = mask.cov;
  const kickCov = small.cov;
  const [t0, t1, t2] = top;
  const [b0, b1, b2] = bottom;
  const [g0, g1, g2] = glow;
  for (let y = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    // A darker band behind the type keeps it legible on any gradient.
    const shade = 1 - 0.35 * Math.max(0, (t - 0.55) / 0.45);
    const dy2 = (y - gy) * (y - gy);
    const row = y * width;
    const shadowRow = (y - shadowDx) * width - shadowDx;
    for (let x = 0; x < width; x++) {
      const tx = landscape ? t * 0.6 + (x / width) * 0.4 : t;
      const d2 = ((x - gx) * (x - gx) + dy2) / (gr * gr);
      let g = 0;
      if (d2 < 1) {
        const d = 1 - Math.sqrt(d2);
        g = d * d * 0.5;
      }
      let r = (t0 * (1 - tx) + b0 * tx) * shade * (1 - g) + g0 * g;
      let gr2 = (t1 * (1 - tx) + b1 * tx) * shade * (1 - g) + g1 * g;
      let bl = (t2 * (1 - tx) + b2 * tx) * shade * (1 - g) + g2 * g;
      const i = row + x;
      const shadowAt = shadowRow + x;
      const shadowCov = x >= shadowDx && y >= shadowDx ? cov[shadowAt]! : 0;
      const inkCov = cov[i]!;
      const kickAt = kickCov[i]!;
      if (shadowCov > 0 || inkCov > 0 || kickAt > 0) {
        const keep = 1 - Math.min(1, shadowCov) * 0.45;
        const kick = Math.min(1, kickAt) * 0.85;
        const ink = Math.min(1, inkCov);
        r = (r * keep * (1 - kick) + 235 * kick) * (1 - ink) + 250 * ink;
        gr2 = (gr2 * keep * (1 - kick) + 235 * kick) * (1 - ink) + 250 * ink;
        bl = (bl * keep * (1 - kick) + 235 * kick) * (1 - ink) + 250 * ink;
      }
      const o = i * 3;
      data[o] = r;
      data[o + 1] = gr2;
      data[o + 2] = bl;
    }
  }
  return { width, height, data };
}
