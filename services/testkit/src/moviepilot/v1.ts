// MoviePilot's own `/api/v1` routes that Usher uses (spec 50 §4.1), with MoviePilot 2.5's
// quirks: Chinese `type` values (an English one raises → 500), business refusals as HTTP 200
// with success:false, and `{success, message, data}` replies.
import { MEDIA_TYPES, downloadIdFor, emptySubscription, type MediaTypeCn } from './catalog.js';
import {
  INTERNAL_ERROR,
  invalidJsonBody,
  jsonObject,
  missingFields,
  type MpReply,
  type MpRequest,
  type Route,
} from './routing.js';
import type { MoviePilotState } from './state.js';

const response = (success: boolean, message: string | null, data: unknown = {}): MpReply => ({
  status: 200,
  body: { success, message, data },
});

const NOTHING_FOUND = response(false, '未搜索到任何资源');

function words(text: string) {
  return text
    .toLowerCase()
    .split(/[\s.]+/)
    .filter(Boolean);
}

function subscribe(req: MpRequest, state: MoviePilotState): MpReply {
  const body = jsonObject(req);
  if (!body) return invalidJsonBody(req.body.value);
  const type = body.type as string | undefined;
  // MediaType(value) raises ValueError for anything but the Chinese enum values.
  if (type !== undefined && !MEDIA_TYPES.includes(type as MediaTypeCn)) return INTERNAL_ERROR;
  const tmdbid = Number(body.tmdbid);
  if (!Number.isInteger(tmdbid) || tmdbid <= 0 || type === undefined) {
    return response(false, '未识别到媒体信息', { id: null });
  }
  const refusal = state.refused.get(tmdbid);
  if (refusal !== undefined) return response(false, refusal, { id: null });
  const season = body.season === undefined || body.season === null ? null : Number(body.season);
  const existing = state.subscriptions.find((s) => s.tmdbid === tmdbid && s.season === season);
  if (existing) return response(true, '订阅已存在', { id: existing.id });
  const id = state.allocateId();
  state.subscriptions.push({
    id,
    name: String(body.name ?? ''),
    year: body.year === undefined || body.year === null ? null : String(body.year),
    type: type as MediaTypeCn,
    tmdbid,
    season,
    username: req.username ?? '',
    state: 'N',
    date: new Date().toISOString().slice(0, 19).replace('T', ' '),
  });
  return response(true, '新增订阅成功', { id });
}

function subscriptionByMedia(req: MpRequest, match: RegExpExecArray, state: MoviePilotState) {
  const mediaId = decodeURIComponent(match[1]!);
  if (!mediaId.startsWith('tmdb:') || !/^\d+$/.test(mediaId.slice(5))) {
    return { status: 200, body: emptySubscription() };
  }
  const season = req.query.season === undefined ? undefined : Number(req.query.season);
  const found = state.findSubscription(Number(mediaId.slice(5)), season);
  return { status: 200, body: found ?? emptySubscription() };
}

function searchByMedia(req: MpRequest, match: RegExpExecArray, state: MoviePilotState): MpReply {
  const mtype = req.query.mtype;
  if (mtype !== undefined && !MEDIA_TYPES.includes(mtype as MediaTypeCn)) return INTERNAL_ERROR;
  const mediaId = decodeURIComponent(match[1]!);
  if (!mediaId.startsWith('tmdb:')) return response(false, '未知的媒体ID');
  const tmdbid = Number(mediaId.slice(5));
  const season = req.query.season === undefined ? undefined : Number(req.query.season);
  const found = state.torrents.filter(
    (t) =>
      t.media_info.tmdb_id === tmdbid &&
      (mtype === undefined || t.media_info.type === mtype) &&
      (season === undefined || t.media_info.season === season),
  );
  return found.length > 0 ? response(true, null, found) : NOTHING_FOUND;
}

function searchByTitle(req: MpRequest, state: MoviePilotState): MpReply {
  const keyword = words(req.query.keyword ?? '');
  const page = Number(req.query.page ?? 0);
  const found = state.torrents.filter((t) => {
    const haystack = words(`${String(t.torrent_info.title)} ${String(t.media_info.title)}`);
    return keyword.every((word) => haystack.some((w) => w.includes(word)));
  });
  // Every seeded result fits on the first page; later pages are empty like a site's last page.
  return page === 0 && found.length > 0 ? response(true, null, found) : NOTHING_FOUND;
}

function addDownload(req: MpRequest, state: MoviePilotState): MpReply {
  const body = jsonObject(req);
  if (!body) return invalidJsonBody(req.body.value);
  const torrent = body.torrent_in;
  if (torrent === undefined) return missingFields(['torrent_in'], body);
  if (typeof torrent !== 'object' || torrent === null) return invalidJsonBody(torrent);
  const torrentIn = torrent as Record<string, unknown>;
  // MoviePilot recognises the media from the release title; unknown titles cannot be added.
  const known = state.torrents.some((t) => t.torrent_info.title === torrentIn.title);
  if (!known) return response(false, '无法识别媒体信息');
  if (state.failDownloads) return response(false, '任务添加失败');
  const downloadId = downloadIdFor(torrentIn);
  state.downloads.push({
    download_id: downloadId,
    torrent_in: torrentIn,
    downloader: body.downloader ?? null,
    save_path: body.save_path ?? null,
    username: req.username ?? '',
  });
  return response(true, null, { download_id: downloadId });
}

export const v1Routes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/subscribe\/$/,
    auth: 'jwt',
    handle: (req, _m, s) => subscribe(req, s),
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/subscribe\/$/,
    auth: 'jwt',
    handle: (_r, _m, s) => ({ status: 200, body: s.subscriptions }),
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/subscribe\/list$/,
    auth: 'apitoken',
    handle: (_r, _m, s) => ({ status: 200, body: s.subscriptions }),
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/subscribe\/media\/([^/]+)$/,
    auth: 'jwt',
    handle: subscriptionByMedia,
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/search\/title$/,
    auth: 'jwt',
    handle: (req, _m, s) => searchByTitle(req, s),
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/search\/media\/([^/]+)$/,
    auth: 'jwt',
    handle: searchByMedia,
  },
  {
    method: 'POST',
    pattern: /^\/api\/v1\/download\/add$/,
    auth: 'jwt',
    handle: (req, _m, s) => addDownload(req, s),
  },
];
