// Streams → quality (§1.6): width-first resolution buckets, codecs, and both HDR vocabularies
// with the ColorTransfer fallback (§8 risk 14).
import {
  codecOf,
  hdrOf,
  resolutionOf,
  videoQuality,
} from '../../../src/integrations/media-server/quality.js';
import { harness, MODES } from './helpers.js';

describe('quality mapping', () => {
  it.each([
    [3840, 1608, '2160p'],
    [3200, 1, '2160p'],
    [3199, 2160, '1080p'],
    [1920, 800, '1080p'],
    [1800, 0, '1080p'],
    [1280, 544, '720p'],
    [1200, 0, '720p'],
    [1199, 1080, 'SD'],
    [720, 480, 'SD'],
    [0, 2160, '2160p'],
    [undefined, 1080, '1080p'],
    [undefined, 720, '720p'],
    [undefined, 480, 'SD'],
    [undefined, undefined, 'unknown'],
    [0, 0, 'unknown'],
  ] as const)('should bucket %s×%s as %s (width decides first)', (w, h, want) => {
    expect(resolutionOf(w, h)).toBe(want);
  });

  it.each([
    ['h264', 'h264'],
    ['AVC', 'h264'],
    ['hevc', 'hevc'],
    ['H265', 'hevc'],
    ['av1', 'av1'],
    ['vp9', 'vp9'],
    ['mpeg2video', 'mpeg2'],
    ['vc1', 'vc1'],
    ['mpeg4', 'other'],
    [undefined, 'other'],
  ] as const)('should name codec %s as %s', (codec, want) => {
    expect(codecOf(codec)).toBe(want);
  });

  it.each([
    [{ VideoRangeType: 'HDR10' }, 'hdr10'],
    [{ VideoRangeType: 'HDR10Plus' }, 'hdr10plus'],
    [{ VideoRangeType: 'HLG' }, 'hlg'],
    [{ VideoRangeType: 'DOVI' }, 'dolbyVision'],
    [{ VideoRangeType: 'DOVIWithHDR10' }, 'dolbyVision'],
    [{ VideoRangeType: 'SDR' }, 'sdr'],
    [{ ExtendedVideoType: 'Hdr10' }, 'hdr10'],
    [{ ExtendedVideoType: 'Hdr10Plus' }, 'hdr10plus'],
    [{ ExtendedVideoType: 'HyperLogGamma' }, 'hlg'],
    [{ ExtendedVideoType: 'DolbyVision' }, 'dolbyVision'],
    [{ ExtendedVideoType: 'None' }, 'sdr'],
    // Emby's VideoRange is free text and is ignored; the transfer decides.
    [{ VideoRange: 'HDR 10', ColorTransfer: 'bt709' }, 'sdr'],
    [{ VideoRangeType: 'Unknown', ColorTransfer: 'smpte2084' }, 'hdr10'],
    [{ ColorTransfer: 'arib-std-b67' }, 'hlg'],
    [{}, 'sdr'],
  ])('should read HDR from %j as %s', (stream, want) => {
    expect(hdrOf(stream)).toBe(want);
  });

  it('should take the first video stream, else the first media source’s', () => {
    const audio = { Type: 'Audio', Codec: 'aac' };
    const video = { Type: 'Video', Codec: 'hevc', Width: 3840, Height: 2160, BitDepth: 10 };
    expect(videoQuality([audio, video, { ...video, Width: 640 }])).toEqual({
      resolution: '2160p',
      codec: 'hevc',
      hdr: 'sdr',
      width: 3840,
      height: 2160,
      bitDepth: 10,
    });
    expect(videoQuality([audio], [{ ...video, BitRate: 1_000 }])).toMatchObject({
      resolution: '2160p',
      bitrate: 1_000,
    });
    expect(videoQuality([audio], [audio])).toBeNull();
  });
});

describe('media-server adapters: quality of the seeded library', () => {
  const boot = harness();

  it.each(MODES)('should bucket every seeded %s movie and episode', async (mode) => {
    const { adapter, seeded } = await boot(mode);
    const page = await adapter.items({
      parentId: seeded.libraries.movies.id,
      types: ['Movie'],
      streams: true,
    });
    const byName = Object.fromEntries(
      page.items.map((i) => [i.name, [i.quality?.resolution, i.quality?.codec, i.quality?.hdr]]),
    );
    expect(byName).toEqual({
      'Dune: Part Two': ['2160p', 'hevc', 'dolbyVision'],
      Oppenheimer: ['2160p', 'hevc', 'hdr10'],
      'Mad Max: Fury Road': ['2160p', 'hevc', 'hdr10plus'],
      'Blade Runner 2049': ['1080p', 'h264', 'sdr'],
      Arrival: ['1080p', 'av1', 'sdr'],
      Amélie: ['720p', 'h264', 'sdr'],
      Casablanca: ['SD', 'mpeg2', 'sdr'],
      'Summer Holiday 2019': ['SD', 'h264', 'sdr'],
    });
    const dune = page.items.find((i) => i.name === 'Dune: Part Two');
    expect(dune?.quality).toMatchObject({ bitDepth: 10, bitrate: 40_000_000 });
    const shows = await adapter.items({
      parentId: seeded.libraries.shows.id,
      types: ['Episode'],
      streams: true,
    });
    const hands = shows.items.find((i) => i.name === 'Hands');
    expect(hands?.quality).toMatchObject({ resolution: '720p', codec: 'hevc', hdr: 'hlg' });
    // Dolby Vision profile 5 has no HDR10 layer and no colour tags: only the DV field says so.
    const dv5 = shows.items.find((i) => i.name === 'Hello, Ms. Cobel');
    expect(dv5?.quality).toMatchObject({ resolution: '2160p', hdr: 'dolbyVision' });
  });
});
