// The stored quality report of one library and the arithmetic behind it: 50-integrations.md §1.6
// buckets (resolution by width first, codec, HDR) and the low-quality groups (below 1080p), one
// group per movie or per series. The scan feeds it page by page, so only counters and the
// low-quality items are held, never the library.
import type { QualityItem, QualityResolution } from '@usher/contracts';
import type { MediaItem, Resolution, VideoCodec } from '../../integrations/media-server/index.js';

/** Bump when the stored shape changes: older rows then read as `missing`. */
export const REPORT_SCHEMA_VERSION = 1;

export type Counts<K extends string> = Record<K, number>;
export type ResolutionCounts = Counts<'uhd4k' | 'fhd1080' | 'hd720' | 'sd' | 'unknown'>;
export type CodecCounts = Counts<'h264' | 'hevc' | 'av1' | 'other'>;
export type HdrCounts = Counts<'sdr' | 'hdr10' | 'hdr10plus' | 'hlg' | 'dolbyVision'>;

export interface StoredGroup {
  groupId: string;
  kind: 'movie' | 'series';
  name: string;
  worstResolution: 'hd720' | 'sd';
  items: QualityItem[];
}

export interface StoredReport {
  resolution: ResolutionCounts;
  codec: CodecCounts;
  hdr: HdrCounts;
  groups: StoredGroup[];
}

const RESOLUTION: Record<Resolution, QualityResolution> = {
  '2160p': 'uhd4k',
  '1080p': 'fhd1080',
  '720p': 'hd720',
  SD: 'sd',
  unknown: 'unknown',
};

const CODEC_BUCKET = (c: VideoCodec): keyof CodecCounts =>
  c === 'h264' || c === 'hevc' || c === 'av1' ? c : 'other';

export const emptyResolution = (): ResolutionCounts => ({
  uhd4k: 0,
  fhd1080: 0,
  hd720: 0,
  sd: 0,
  unknown: 0,
});
export const emptyCodec = (): CodecCounts => ({ h264: 0, hevc: 0, av1: 0, other: 0 });
export const emptyHdr = (): HdrCounts => ({
  sdr: 0,
  hdr10: 0,
  hdr10plus: 0,
  hlg: 0,
  dolbyVision: 0,
});

/** Orders low-quality groups worst first, then by name. */
export function byWorst(a: { worstResolution: string; name: string }, b: typeof a): number {
  const rank = (r: string) => (r === 'sd' ? 0 : 1);
  return rank(a.worstResolution) - rank(b.worstResolution) || a.name.localeCompare(b.name);
}

export class ReportBuilder {
  readonly resolution = emptyResolution();
  readonly codec = emptyCodec();
  readonly hdr = emptyHdr();
  private readonly groups = new Map<string, StoredGroup>();
  /** Videos counted (items without a video stream are not videos and are skipped). */
  count = 0;

  add(item: MediaItem): void {
    const q = item.quality;
    if (!q) return;
    this.count += 1;
    const resolution = RESOLUTION[q.resolution];
    this.resolution[resolution] += 1;
    this.codec[CODEC_BUCKET(q.codec)] += 1;
    this.hdr[q.hdr] += 1;
    if (resolution !== 'hd720' && resolution !== 'sd') return;
    const episode = item.type === 'Episode' && item.seriesId !== undefined;
    const groupId = episode ? item.seriesId! : item.id;
    let group = this.groups.get(groupId);
    if (!group) {
      group = {
        groupId,
        kind: episode ? 'series' : 'movie',
        name: episode ? (item.seriesName ?? item.name) : item.name,
        worstResolution: resolution,
        items: [],
      };
      this.groups.set(groupId, group);
    }
    if (resolution === 'sd') group.worstResolution = 'sd';
    group.items.push({
      itemId: item.id,
      name: item.name,
      season: episode ? (item.season ?? null) : null,
      episode: episode ? (item.episode ?? null) : null,
      width: q.width ?? null,
      height: q.height ?? null,
      resolution,
      codec: q.codec,
      hdr: q.hdr,
      bitrate: q.bitrate === undefined ? null : Math.round(q.bitrate),
    });
  }

  build(): StoredReport {
    const groups = [...this.groups.values()].sort(byWorst);
    for (const g of groups) {
      g.items.sort(
        (a, b) =>
          (a.season ?? 0) - (b.season ?? 0) ||
          (a.episode ?? 0) - (b.episode ?? 0) ||
          a.name.localeCompare(b.name),
      );
    }
    return { resolution: this.resolution, codec: this.codec, hdr: this.hdr, groups };
  }
}

/** Adds `b`'s counters into `a` (the `all` view). */
export function addCounts<K extends string>(a: Counts<K>, b: Counts<K>): void {
  for (const k of Object.keys(a) as K[]) a[k] += b[k] ?? 0;
}
