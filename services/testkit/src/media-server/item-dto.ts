// BaseItemDto rendering. Optional members appear only when asked for through `Fields`, like on
// the real servers: an adapter that forgets `Fields=ProviderIds` must see no ProviderIds.
import { isoDate } from './http.js';
import { hexId } from './state.js';
import type { FakeItem, FakeLibrary, HdrKind, MediaState, VideoSpec } from './types.js';

/** Field names both servers accept in `Fields=`, compared case-insensitively. */
export function parseFields(list: string[] | undefined): Set<string> {
  return new Set((list ?? []).map((f) => f.toLowerCase()));
}

export function imageTag(itemId: string): string {
  return hexId(`image:${itemId}`);
}

/** Renders one item; `childCount` is set by the latest-items grouping. */
export function itemDto(
  state: MediaState,
  item: FakeItem,
  fields: Set<string>,
  childCount?: number,
): Record<string, unknown> {
  const jf = state.flavour === 'jellyfin';
  const isVideo = item.type === 'Movie' || item.type === 'Episode';
  const dto: Record<string, unknown> = { Name: item.name, ServerId: state.serverId, Id: item.id };
  if (fields.has('datecreated')) dto['DateCreated'] = isoDate(item.dateCreated);
  if (fields.has('originaltitle') && item.originalTitle) dto['OriginalTitle'] = item.originalTitle;
  if (fields.has('sortname')) dto['SortName'] = sortName(item.name);
  if (isVideo && item.locationType === 'FileSystem') dto['Container'] = item.container ?? 'mkv';
  if (item.premiereDate) dto['PremiereDate'] = isoDate(item.premiereDate);
  if (fields.has('path') && item.path) dto['Path'] = item.path;
  if (fields.has('overview') && item.overview) dto['Overview'] = item.overview;
  if (item.runTimeTicks) dto['RunTimeTicks'] = item.runTimeTicks;
  if (item.productionYear) dto['ProductionYear'] = item.productionYear;
  if (item.indexNumber !== undefined) dto['IndexNumber'] = item.indexNumber;
  if (item.indexNumberEnd !== undefined) dto['IndexNumberEnd'] = item.indexNumberEnd;
  if (item.parentIndexNumber !== undefined) dto['ParentIndexNumber'] = item.parentIndexNumber;
  if (fields.has('providerids')) dto['ProviderIds'] = { ...item.providerIds };
  if (fields.has('genres')) dto['Genres'] = [...(item.genres ?? [])];
  dto['IsFolder'] = !isVideo;
  if (fields.has('parentid')) dto['ParentId'] = item.parentId;
  dto['Type'] = item.type;
  if (childCount !== undefined) dto['ChildCount'] = childCount;
  if (item.seriesName) dto['SeriesName'] = item.seriesName;
  if (item.seriesId) dto['SeriesId'] = item.seriesId;
  if (item.seasonId) dto['SeasonId'] = item.seasonId;
  if (item.seasonName) dto['SeasonName'] = item.seasonName;
  if (isVideo && item.locationType === 'FileSystem') {
    if (fields.has('mediastreams')) dto['MediaStreams'] = mediaStreams(state, item);
    if (fields.has('mediasources')) dto['MediaSources'] = [mediaSource(state, item)];
    if (jf) dto['VideoType'] = 'VideoFile';
  }
  dto['ImageTags'] = item.hasPrimaryImage ? { Primary: imageTag(item.id) } : {};
  // Episodes and seasons carry their show's poster tag, when the show has one (both servers send
  // it with the image info, no `Fields` needed): clients draw a 2:3 poster, not the 16:9 still.
  const series = item.seriesId ? state.items.get(item.seriesId) : undefined;
  if (series?.hasPrimaryImage && (item.type === 'Episode' || item.type === 'Season')) {
    dto['SeriesPrimaryImageTag'] = imageTag(series.id);
  }
  dto['BackdropImageTags'] = [];
  dto['LocationType'] = item.locationType;
  if (isVideo) dto['MediaType'] = 'Video';
  else if (jf) dto['MediaType'] = 'Unknown';
  return dto;
}

/** A library as `/Library/MediaFolders` lists it; Emby adds the `Guid` its policies use. */
export function libraryDto(state: MediaState, lib: FakeLibrary): Record<string, unknown> {
  return {
    Name: lib.name,
    ServerId: state.serverId,
    Id: lib.id,
    ...(state.flavour === 'emby' ? { Guid: lib.guid } : {}),
    Etag: hexId(`etag:${lib.id}`),
    DateCreated: isoDate(lib.dateCreated),
    CanDelete: false,
    SortName: sortName(lib.name),
    Path: lib.path,
    IsFolder: true,
    Type: 'CollectionFolder',
    CollectionType: lib.collectionType,
    ImageTags: {},
    BackdropImageTags: [],
    ...(state.flavour === 'jellyfin' ? { LocationType: 'FileSystem' } : {}),
  };
}

function sortName(name: string): string {
  return name.toLowerCase().replace(/^(the|a|an) /, '');
}

const CHANNEL_LAYOUTS: Record<number, string> = { 1: 'mono', 2: 'stereo', 6: '5.1', 8: '7.1' };

function mediaStreams(state: MediaState, item: FakeItem): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (item.video) out.push(videoStream(state, item.video));
  if (item.audio) {
    const a = item.audio;
    // ffprobe's layout names, as both servers report them (the demo has 7.1 TrueHD tracks).
    const layout = CHANNEL_LAYOUTS[a.channels] ?? `${a.channels} channels`;
    out.push({
      Codec: a.codec,
      Language: a.language,
      TimeBase: '1/1000',
      DisplayTitle: [a.language, a.codec, layout === 'stereo' ? 'Stereo' : layout]
        .join(' ')
        .toUpperCase(),
      IsInterlaced: false,
      ChannelLayout: layout,
      BitRate: a.bitRate,
      Channels: a.channels,
      SampleRate: 48000,
      IsDefault: true,
      IsForced: false,
      IsHearingImpaired: false,
      Type: 'Audio',
      Index: 1,
      IsExternal: false,
      IsTextSubtitleStream: false,
      SupportsExternalStream: false,
      ...(state.flavour === 'emby' ? { Protocol: 'File' } : { AudioSpatialFormat: 'None' }),
    });
  }
  return out;
}

const RESOLUTION_LABEL: [number, string][] = [
  [3200, '4K'],
  [1800, '1080p'],
  [1200, '720p'],
  [0, 'SD'],
];

function videoStream(state: MediaState, v: VideoSpec): Record<string, unknown> {
  const label = RESOLUTION_LABEL.find(([min]) => v.width >= min)?.[1] ?? 'SD';
  const common: Record<string, unknown> = {
    Codec: v.codec,
    ...colour(v),
    TimeBase: '1/1000',
    IsInterlaced: false,
    IsAVC: v.codec === 'h264',
    BitRate: v.bitRate,
    BitDepth: v.bitDepth,
    RefFrames: 1,
    IsDefault: true,
    IsForced: false,
    IsHearingImpaired: false,
    Height: v.height,
    Width: v.width,
    AverageFrameRate: v.frameRate,
    RealFrameRate: v.frameRate,
    Profile: PROFILE[v.codec] + (v.bitDepth > 8 && v.codec === 'hevc' ? ' 10' : ''),
    Type: 'Video',
    AspectRatio: aspect(v.width, v.height),
    Index: 0,
    IsExternal: false,
    IsTextSubtitleStream: false,
    SupportsExternalStream: false,
    PixelFormat: v.bitDepth > 8 ? 'yuv420p10le' : 'yuv420p',
    Level: v.codec === 'hevc' ? 153 : 41,
  };
  const codec = v.codec === 'mpeg2video' ? 'MPEG2VIDEO' : v.codec.toUpperCase();
  if (state.flavour === 'emby') {
    const [ext, sub, desc] = EMBY_HDR[v.hdr](v.dvProfile);
    // Emby's VideoRange is free text (§1.6): only ExtendedVideoType is a closed vocabulary.
    return {
      ...common,
      VideoRange: desc === 'None' ? 'SDR' : desc,
      DisplayTitle: `${label} ${codec}${desc === 'None' ? '' : ` ${desc}`}`,
      Protocol: 'File',
      ExtendedVideoType: ext,
      ExtendedVideoSubType: sub,
      ExtendedVideoSubTypeDescription: desc,
    };
  }
  const rangeType = jellyfinRangeType(v.hdr, v.dvProfile);
  return {
    ...common,
    ...(v.hdr === 'DolbyVision' ? doviFields(v.dvProfile ?? 8) : {}),
    VideoRange: v.hdr === 'SDR' ? 'SDR' : 'HDR',
    VideoRangeType: rangeType,
    AudioSpatialFormat: 'None',
    DisplayTitle: `${label} ${codec} ${rangeType === 'SDR' ? 'SDR' : rangeType}`,
    IsAnamorphic: false,
  };
}

const PROFILE: Record<VideoSpec['codec'], string> = {
  h264: 'High',
  hevc: 'Main',
  av1: 'Main',
  vp9: 'Profile 0',
  mpeg2video: 'Main',
};

type EmbyHdr = (dvProfile?: number) => [string, string, string];
const EMBY_HDR: Record<HdrKind, EmbyHdr> = {
  SDR: () => ['None', 'None', 'None'],
  HDR10: () => ['Hdr10', 'Hdr10', 'HDR 10'],
  HDR10Plus: () => ['Hdr10Plus', 'Hdr10Plus0', 'HDR 10+'],
  HLG: () => ['HyperLogGamma', 'HyperLogGamma', 'HLG'],
  DolbyVision: (p) => ['DolbyVision', p === 5 ? 'DoviProfile50' : 'DoviProfile81', 'Dolby Vision'],
};

function jellyfinRangeType(hdr: HdrKind, dvProfile?: number): string {
  if (hdr === 'DolbyVision') return dvProfile === 5 ? 'DOVI' : 'DOVIWithHDR10';
  return hdr;
}

function doviFields(profile: number): Record<string, unknown> {
  return {
    DvVersionMajor: 1,
    DvVersionMinor: 0,
    DvProfile: profile,
    DvLevel: 6,
    RpuPresentFlag: 1,
    ElPresentFlag: 0,
    BlPresentFlag: 1,
    DvBlSignalCompatibilityId: profile === 5 ? 0 : 1,
    VideoDoViTitle: profile === 5 ? 'Dolby Vision Profile 5' : 'Dolby Vision Profile 8.1 (HDR10)',
  };
}

/** ffprobe colour tags; a profile-5 Dolby Vision file carries none (no HDR10 base layer). */
function colour(v: VideoSpec): Record<string, string> {
  if (v.hdr === 'SDR')
    return v.width >= 1200
      ? { ColorSpace: 'bt709', ColorTransfer: 'bt709', ColorPrimaries: 'bt709' }
      : {};
  if (v.hdr === 'DolbyVision' && v.dvProfile === 5) return {};
  const transfer = v.hdr === 'HLG' ? 'arib-std-b67' : 'smpte2084';
  return { ColorSpace: 'bt2020nc', ColorTransfer: transfer, ColorPrimaries: 'bt2020' };
}

function aspect(w: number, h: number): string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const g = gcd(w, h);
  return `${w / g}:${h / g}`;
}

function mediaSource(state: MediaState, item: FakeItem): Record<string, unknown> {
  const base: Record<string, unknown> = {
    Protocol: 'File',
    Id: state.flavour === 'emby' ? `mediasource_${item.id}` : item.id,
    Path: item.path,
    Type: 'Default',
    Container: item.container ?? 'mkv',
    Size: item.size ?? 0,
    Name: item.name,
    IsRemote: false,
    RunTimeTicks: item.runTimeTicks,
    SupportsTranscoding: true,
    SupportsDirectStream: true,
    SupportsDirectPlay: true,
    IsInfiniteStream: false,
    RequiresOpening: false,
    RequiresClosing: false,
    RequiresLooping: false,
    SupportsProbing: true,
    MediaStreams: mediaStreams(state, item),
    Formats: [],
    Bitrate: (item.video?.bitRate ?? 0) + (item.audio?.bitRate ?? 0),
    RequiredHttpHeaders: {},
    DefaultAudioStreamIndex: 1,
  };
  if (state.flavour === 'emby') return { ...base, ItemId: item.id };
  return {
    ...base,
    ETag: hexId(`etag:${item.id}`),
    ReadAtNativeFramerate: false,
    IgnoreDts: false,
    IgnoreIndex: false,
    GenPtsInput: false,
    UseMostCompatibleTranscodingProfile: false,
    VideoType: 'VideoFile',
    MediaAttachments: [],
    TranscodingSubProtocol: 'http',
    HasSegments: false,
  };
}
