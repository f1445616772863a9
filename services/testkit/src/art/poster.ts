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
    const edges: [number, number, number, number, number][] = [];
    let minY = Infinity;
    let maxY = -Infinity;
    for (const poly of polygons) {
      for (let i = 0; i < poly.length; i++) {
        const [x0, y0] = poly[i]!;
        const [x1, y1] = poly[(i + 1) % poly.length]!;
        if (y0 === y1) continue;
        edges.push(y0 < y1 ? [x0, y0, x1, y1, 1] : [x1, y1, x0, y0, -1]);
        minY = Math.min(minY, y0, y1);
        maxY = Math.max(maxY, y0, y1);
      }
    }
    const top = Math.max(0, Math.floor(minY));
    const bottom = Math.min(this.height - 1, Math.ceil(maxY));
    const crossings: [number, number][] = [];
    for (let y = top; y <= bottom; y++) {
      for (let s = 0; s < SS; s++) {
        const sy = y + (s + 0.5) / SS;
        crossings.length = 0;
        for (const [x0, y0, x1, y1, dir] of edges) {
          if (sy < y0 || sy >= y1) continue;
          crossings.push([x0 + ((sy - y0) / (y1 - y0)) * (x1 - x0), dir]);
        }
        crossings.sort((a, b) => a[0] - b[0]);
        let winding = 0;
        for (let i = 0; i < crossings.length - 1; i++) {
          winding += crossings[i]![1];
          if (winding !== 0) this.span(y, crossings[i]![0], crossings[i + 1]![0], 1 / SS);
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
  for (let y = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    for (let x = 0; x < width; x++) {
      const tx = landscape ? t * 0.6 + (x / width) * 0.4 : t;
      const d = Math.hypot(x - gx, y - gy) / gr;
      const g = Math.max(0, 1 - d) ** 2 * 0.5;
      // A darker band behind the type keeps it legible on any gradient.
      const shade = 1 - 0.35 * Math.max(0, (t - 0.55) / 0.45);
      const i = y * width + x;
      const sx = x - shadowDx;
      const sy = y - shadowDx;
      const shadow = sx >= 0 && sy >= 0 ? Math.min(1, mask.cov[sy * width + sx]!) * 0.45 : 0;
      const ink = Math.min(1, mask.cov[i]!);
      const kick = Math.min(1, small.cov[i]!) * 0.85;
      for (let c = 0; c < 3; c++) {
        let v = (top[c]! * (1 - tx) + bottom[c]! * tx) * shade;
        v = v * (1 - g) + glow[c]! * g;
        v *= 1 - shadow;
        v = v * (1 - kick) + 235 * kick;
        v = v * (1 - ink) + 250 * ink;
        data[i * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  return { width, height, data };
}
