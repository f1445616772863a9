// Streams → quality for the media-quality pages (50-integrations.md §1.6). Emby and Jellyfin name
// HDR differently (§8 risk 14), so both vocabularies are read, with ffprobe's transfer as fallback.
import { z } from 'zod';

export type Resolution = '2160p' | '1080p' | '720p' | 'SD' | 'unknown';
export type VideoCodec = 'h264' | 'hevc' | 'av1' | 'vp9' | 'mpeg2' | 'vc1' | 'other';
export type HdrKind = 'sdr' | 'hdr10' | 'hdr10plus' | 'hlg' | 'dolbyVision';

export interface VideoQuality {
  resolution: Resolution;
  codec: VideoCodec;
  hdr: HdrKind;
  width?: number;
  height?: number;
  bitDepth?: number;
  /** Bits per second. */
  bitrate?: number;
}

/** The `MediaStreams[]` fields §1.6 reads. */
export const StreamSchema = z.object({
  Type: z.string().nullish(),
  Codec: z.string().nullish(),
  Width: z.number().nullish(),
  Height: z.number().nullish(),
  BitDepth: z.number().nullish(),
  BitRate: z.number().nullish(),
  VideoRangeType: z.string().nullish(),
  ExtendedVideoType: z.string().nullish(),
  ColorTransfer: z.string().nullish(),
});
export type StreamDto = z.infer<typeof StreamSchema>;

/**
 * Width decides first, so a cropped 1920×800 film is still 1080p; height is a fallback for
 * streams without a width. The height thresholds are the 16:9 equivalents of the width ones.
 */
export function resolutionOf(width?: number | null, height?: number | null): Resolution {
  if (width && width > 0) {
    if (width >= 3200) return '2160p';
    if (width >= 1800) return '1080p';
    if (width >= 1200) return '720p';
    return 'SD';
  }
  if (height && height > 0) {
    if (height >= 1800) return '2160p';
    if (height >= 1000) return '1080p';
    if (height >= 700) return '720p';
    return 'SD';
  }
  return 'unknown';
}

const CODECS: Record<string, VideoCodec> = {
  h264: 'h264',
  avc: 'h264',
  hevc: 'hevc',
  h265: 'hevc',
  av1: 'av1',
  vp9: 'vp9',
  mpeg2video: 'mpeg2',
  vc1: 'vc1',
};

export function codecOf(codec?: string | null): VideoCodec {
  return CODECS[(codec ?? '').toLowerCase()] ?? 'other';
}

const JELLYFIN_HDR: Record<string, HdrKind> = {
  HDR10: 'hdr10',
  HDR10Plus: 'hdr10plus',
  HLG: 'hlg',
  SDR: 'sdr',
};

/** Emby `ExtendedVideoType`; `VideoRange` is free text there and is deliberately not read. */
const EMBY_HDR: Record<string, HdrKind> = {
  Hdr10: 'hdr10',
  Hdr10Plus: 'hdr10plus',
  HyperLogGamma: 'hlg',
  DolbyVision: 'dolbyVision',
  None: 'sdr',
};

/** Jellyfin `VideoRangeType`; any `DOVI*` value is Dolby Vision (with or without a fallback). */
function jellyfinHdr(v: string): HdrKind | undefined {
  return v.toUpperCase().startsWith('DOVI') ? 'dolbyVision' : JELLYFIN_HDR[v];
}

export function hdrOf(stream: StreamDto): HdrKind {
  const fromJellyfin = stream.VideoRangeType ? jellyfinHdr(stream.VideoRangeType) : undefined;
  if (fromJellyfin) return fromJellyfin;
  const fromEmby = stream.ExtendedVideoType ? EMBY_HDR[stream.ExtendedVideoType] : undefined;
  if (fromEmby) return fromEmby;
  const transfer = (stream.ColorTransfer ?? '').toLowerCase();
  if (transfer === 'smpte2084') return 'hdr10';
  if (transfer === 'arib-std-b67') return 'hlg';
  return 'sdr';
}

/**
 * Quality of the first video stream: top-level `MediaStreams` first, else those of the first
 * media source. Null when the item has no video stream at all.
 */
export function videoQuality(
  streams: readonly StreamDto[],
  sourceStreams: readonly StreamDto[] = [],
): VideoQuality | null {
  const isVideo = (s: StreamDto) => s.Type === 'Video';
  const video = streams.find(isVideo) ?? sourceStreams.find(isVideo);
  if (!video) return null;
  const q: VideoQuality = {
    resolution: resolutionOf(video.Width, video.Height),
    codec: codecOf(video.Codec),
    hdr: hdrOf(video),
  };
  if (video.Width) q.width = video.Width;
  if (video.Height) q.height = video.Height;
  if (video.BitDepth) q.bitDepth = video.BitDepth;
  if (video.BitRate) q.bitrate = video.BitRate;
  return q;
}
