import type http from 'node:http';
import { startFakeHttpServer, type FaultSwitches } from '../fake-server/http-server.js';
import { queryOf, sendJson, sendText, type RecordedRequest } from '../fake-server/reply.js';
import { defaultTmdbFixtures, type TmdbFixtures, type Translations } from './fixtures.js';
import { drawArt, encodeJpeg } from '../art/index.js';
import {
  credits,
  movieDetails,
  movieExternalIds,
  movieResult,
  personResult,
  seasonDetails,
  tvDetails,
  tvExternalIds,
  tvResult,
} from './present.js';

export interface FakeTmdbOptions {
  /** v3 key accepted as `?api_key=`. */
  apiKey?: string;
  /** v4 read access token accepted as `Authorization: Bearer`. */
  readToken?: string;
  /** "Today" for air dates (YYYY-MM-DD); defaults to the current UTC date. */
  today?: string;
  fixtures?: TmdbFixtures;
}

export interface FakeTmdb {
  /** Origin of the fake; the API lives under `/3`, images under `/t/p`. */
  readonly url: string;
  /** Value for TMDB_API_BASE. */
  readonly apiBase: string;
  /** Value for TMDB_IMAGE_BASE. */
  readonly imageBase: string;
  readonly apiKey: string;
  readonly readToken: string;
  readonly today: string;
  readonly fixtures: TmdbFixtures;
  readonly requests: RecordedRequest[];
  readonly faults: FaultSwitches;
  /** The next `times` API requests answer 429 (status_code 25) with `Retry-After`. */
  rateLimit(times: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

// A JWT-shaped token (header.payload.signature, starting "eyJ"), like TMDB's v4 read tokens.
const DEFAULT_READ_TOKEN =
  'eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiJ1c2hlci10ZXN0Iiwic2NvcGVzIjpbImFwaV9yZWFkIl19.' +
  'ZmFrZS1zaWduYXR1cmUtZm9yLXRlc3Rz';
const PAGE_SIZE = 20;
const IMAGE_SIZES = ['w45', 'w92', 'w154', 'w185', 'w300', 'w342', 'w500', 'w780', 'w1280', 'h632'];

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

const error = (status: number, code: number, message: string): Reply => ({
  status,
  body: { success: false, status_code: code, status_message: message },
});
const NOT_FOUND = error(404, 34, 'The resource you requested could not be found.');
// TMDB sends this one with `success` last; clients should not care, but the fake copies it.
const INVALID_KEY: Reply = {
  status: 401,
  body: {
    status_code: 7,
    status_message: 'Invalid API key: You must be granted a valid key.',
    success: false,
  },
};
const INVALID_PAGE = error(
  400,
  22,
  'Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.',
);

// `GET /configuration` as TMDB answers it: the image CDN and its sizes (absolute TMDB URLs, as the
// real API sends regardless of how it was reached).
const CONFIGURATION = {
  change_keys: ['adult', 'air_date', 'also_known_as', 'biography', 'name', 'overview', 'title'],
  images: {
    base_url: 'http://image.tmdb.org/t/p/',
    secure_base_url: 'https://image.tmdb.org/t/p/',
    backdrop_sizes: ['w300', 'w780', 'w1280', 'original'],
    logo_sizes: ['w45', 'w92', 'w154', 'w185', 'w300', 'w500', 'original'],
    poster_sizes: ['w92', 'w154', 'w185', 'w342', 'w500', 'w780', 'original'],
    profile_sizes: ['w45', 'w185', 'h632', 'original'],
    still_sizes: ['w92', 'w185', 'w300', 'original'],
  },
};

/** Pixel size of an image: posters and profiles are 2:3, backdrops and stills 16:9. */
function imageSize(size: string, file: string): [number, number] {
  const ratio = /backdrop|still/.test(file) ? 9 / 16 : 1.5;
  if (size === 'original') return ratio === 1.5 ? [1000, 1500] : [1920, 1080];
  const n = Number(size.slice(1));
  return size.startsWith('h') ? [Math.round(n / ratio), n] : [n, Math.round(n * ratio)];
}

const normalise = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** TMDB matches every word of the query against the titles in any language. */
function matches(query: string, names: string[]) {
  const haystack = normalise(names.join(' '));
  const words = normalise(query).split(/\s+/).filter(Boolean);
  return words.length > 0 && words.every((word) => haystack.includes(word));
}

const titles = (translations: Translations) => Object.values(translations).map((t) => t.title);

function paged(results: unknown[], q: Record<string, string>): Reply {
  const page = q.page === undefined ? 1 : Number(q.page);
  if (!Number.isInteger(page) || page < 1 || page > 500) return INVALID_PAGE;
  const totalPages = Math.max(1, Math.ceil(results.length / PAGE_SIZE));
  return {
    status: 200,
    body: {
      page,
      results: results.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
      total_pages: totalPages,
      total_results: results.length,
    },
  };
}

/** Starts a fake TMDB v3 API plus its image CDN on one port. */
export async function startFakeTmdb(options: FakeTmdbOptions = {}): Promise<FakeTmdb> {
  const apiKey = options.apiKey ?? 'fake0tmdb0v3key0000000000000000';
  const readToken = options.readToken ?? DEFAULT_READ_TOKEN;
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const fixtures = options.fixtures ?? defaultTmdbFixtures(today);
  const requests: RecordedRequest[] = [];
  const limit = { remaining: 0, retryAfter: 1 };

  function search(kind: 'multi' | 'movie' | 'tv', q: Record<string, string>): Reply {
    const language = q.language ?? 'en-US';
    const adult = q.include_adult === 'true';
    const query = q.query ?? '';
    const movieYear = q.primary_release_year ?? q.year;
    const tvYear = q.first_air_date_year ?? q.year;
    const movies = fixtures.movies
      .filter((m) => adult || !m.adult)
      .filter((m) => matches(query, [m.original_title, ...titles(m.translations)]))
      .filter((m) => kind !== 'movie' || !movieYear || m.release_date.startsWith(movieYear))
      .map((m) => ({ popularity: m.popularity, value: movieResult(m, language), type: 'movie' }));
    const shows = fixtures.tv
      .filter((s) => adult || !s.adult)
      .filter((s) => matches(query, [s.original_name, ...titles(s.translations)]))
      .filter((s) => kind !== 'tv' || !tvYear || s.first_air_date.startsWith(tvYear))
      .map((s) => ({ popularity: s.popularity, value: tvResult(s, language), type: 'tv' }));
    const people = fixtures.people
      .filter((p) => matches(query, [p.name, p.original_name]))
      .map((p) => ({
        popularity: p.popularity,
        value: personResult(p, fixtures, language),
        type: 'person',
      }));
    const pool =
      kind === 'movie' ? movies : kind === 'tv' ? shows : [...movies, ...shows, ...people];
    const sorted = pool.sort((a, b) => b.popularity - a.popularity);
    // Only multi search labels results with media_type.
    return paged(
      sorted.map((r) => (kind === 'multi' ? { ...r.value, media_type: r.type } : r.value)),
      q,
    );
  }

  /** Released (dated, not after today) titles only: TMDB's popular lists hold no announcements. */
  const released = (date: string) => date !== '' && date <= today;

  /**
   * `/trending/{media_type}/{time_window}`, `/movie/popular`, `/tv/popular`, `/movie/upcoming`:
   * pages of 20 like search. Trending labels every result with `media_type` (people included
   * on `all`); the popular and upcoming lists do not. A week ranks by popularity; a day favours
   * the newest titles (popularity over the years since release), so the two differ as TMDB's do.
   * Upcoming is every dated movie after today, with TMDB's `dates` window.
   */
  function discover(path: string, q: Record<string, string>): Reply | null {
    const language = q.language ?? 'en-US';
    const movies = fixtures.movies.filter((m) => !m.adult);
    const shows = fixtures.tv.filter((s) => !s.adult);
    const trending = /^\/3\/trending\/([^/]+)\/([^/]+)$/.exec(path);
    if (trending) {
      const [, type, window] = trending;
      if (!['all', 'movie', 'tv', 'person'].includes(type!) || !['day', 'week'].includes(window!)) {
        return NOT_FOUND;
      }
      const todayYear = Number(today.slice(0, 4));
      const score = (popularity: number, date: string) =>
        window === 'week'
          ? popularity
          : popularity / (1 + Math.max(0, todayYear - Number(date.slice(0, 4) || todayYear)));
      const pool = [
        ...(type === 'all' || type === 'movie'
          ? movies
              .filter((m) => released(m.release_date))
              .map((m) => ({
                score: score(m.popularity, m.release_date),
                value: { ...movieResult(m, language), media_type: 'movie' },
              }))
          : []),
        ...(type === 'all' || type === 'tv'
          ? shows
              .filter((s) => released(s.first_air_date))
              .map((s) => ({
                score: score(s.popularity, s.first_air_date),
                value: { ...tvResult(s, language), media_type: 'tv' },
              }))
          : []),
        ...(type === 'all' || type === 'person'
          ? fixtures.people.map((p) => ({
              score: p.popularity,
              value: { ...personResult(p, fixtures, language), media_type: 'person' },
            }))
          : []),
      ];
      return paged(
        pool.sort((a, b) => b.score - a.score).map((r) => r.value),
        q,
      );
    }
    const byPopularity = <T extends { popularity: number }>(list: T[]) =>
      [...list].sort((a, b) => b.popularity - a.popularity);
    if (path === '/3/movie/popular') {
      const list = byPopularity(movies.filter((m) => released(m.release_date)));
      return paged(
        list.map((m) => movieResult(m, language)),
        q,
      );
    }
    if (path === '/3/tv/popular') {
      const list = byPopularity(shows.filter((s) => released(s.first_air_date)));
      return paged(
        list.map((s) => tvResult(s, language)),
        q,
      );
    }
    if (path === '/3/movie/upcoming') {
      const list = byPopularity(movies.filter((m) => m.release_date > today));
      const reply = paged(
        list.map((m) => movieResult(m, language)),
        q,
      );
      if (reply.status !== 200) return reply;
      const last = list.reduce((max, m) => (m.release_date > max ? m.release_date : max), today);
      return {
        status: 200,
        body: { dates: { maximum: last, minimum: today }, ...(reply.body as object) },
      };
    }
    return null;
  }

  function route(path: string, q: Record<string, string>): Reply {
    const language = q.language ?? 'en-US';
    const append = (q.append_to_response ?? '').split(',');
    // Clients use /configuration as the cheapest authenticated call (Usher's connection test).
    if (path === '/3/configuration') return { status: 200, body: CONFIGURATION };
    const searchMatch = /^\/3\/search\/(multi|movie|tv)$/.exec(path);
    if (searchMatch) return search(searchMatch[1] as 'multi' | 'movie' | 'tv', q);
    const listed = discover(path, q);
    if (listed) return listed;
    const detail = /^\/3\/(movie|tv)\/([^/]+)(?:\/(external_ids|season\/([^/]+)))?$/.exec(path);
    if (!detail) return NOT_FOUND;
    const [, kind, rawId, sub, rawSeason] = detail;
    if (!/^\d+$/.test(rawId!)) {
      return error(404, 6, 'Invalid id: The pre-requisite id is invalid or not found.');
    }
    const id = Number(rawId);
    if (kind === 'movie') {
      const movie = fixtures.movies.find((m) => m.id === id);
      if (!movie || (sub && sub !== 'external_ids')) return NOT_FOUND;
      if (sub === 'external_ids') return { status: 200, body: movieExternalIds(movie) };
      const body: Record<string, unknown> = movieDetails(movie, fixtures, language);
      if (append.includes('external_ids')) body.external_ids = movieExternalIds(movie);
      if (append.includes('credits')) body.credits = credits(fixtures, 'movie', id);
      return { status: 200, body };
    }
    const show = fixtures.tv.find((s) => s.id === id);
    if (!show) return NOT_FOUND;
    if (sub === 'external_ids') return { status: 200, body: tvExternalIds(show) };
    if (sub) {
      const season = show.seasons.find((s) => String(s.season_number) === rawSeason);
      return season ? { status: 200, body: seasonDetails(show, season, language) } : NOT_FOUND;
    }
    const body: Record<string, unknown> = tvDetails(show, fixtures, language, today);
    if (append.includes('external_ids')) body.external_ids = tvExternalIds(show);
    if (append.includes('credits')) body.credits = credits(fixtures, 'tv', id);
    return { status: 200, body };
  }

  function authorised(req: http.IncomingMessage, q: Record<string, string>) {
    if (q.api_key !== undefined) return q.api_key === apiKey;
    return req.headers.authorization === `Bearer ${readToken}`;
  }

  /** What each image file shows: its title in type, with the year (or season) above it. */
  const artOf = new Map<string, { title: string; kicker?: string }>();
  const en = (t: Translations, fallback: string) => t['en-US']?.title || fallback;
  const put = (file: string | null, title: string, kicker?: string) => {
    if (file) artOf.set(file, kicker ? { title, kicker } : { title });
  };
  for (const m of fixtures.movies) {
    const title = en(m.translations, m.original_title);
    put(m.poster_path, title, m.release_date.slice(0, 4));
    put(m.backdrop_path, title, m.release_date.slice(0, 4));
  }
  for (const s of fixtures.tv) {
    const title = en(s.translations, s.original_name);
    put(s.poster_path, title, s.first_air_date.slice(0, 4));
    put(s.backdrop_path, title, s.first_air_date.slice(0, 4));
    for (const season of s.seasons) {
      put(season.poster_path, title, `SEASON ${season.season_number}`);
      for (const e of season.episodes) {
        put(e.still_path, e.names?.['en-US'] ?? `Episode ${e.episode_number}`, title);
      }
    }
  }
  for (const p of fixtures.people) put(p.profile_path, p.name);
  // Drawing a 1000×1500 original takes a while; the CDN is immutable, so keep recent answers.
  const drawn = new Map<string, Buffer>();

  function image(res: http.ServerResponse, size: string, file: string) {
    const art = artOf.get(file);
    if ((size !== 'original' && !IMAGE_SIZES.includes(size)) || !art) {
      return sendText(res, 404, 'Not Found');
    }
    const key = `${size}${file}`;
    let jpeg = drawn.get(key);
    if (!jpeg) {
      const [width, height] = imageSize(size, file);
      jpeg = encodeJpeg(drawArt({ seed: file, ...art, width, height }), 80);
      if (drawn.size >= 64) drawn.delete(drawn.keys().next().value!);
      drawn.set(key, jpeg);
    }
    res.writeHead(200, {
      'content-type': 'image/jpeg',
      'content-length': String(jpeg.length),
      'cache-control': 'public, max-age=31536000',
    });
    res.end(jpeg);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const q = queryOf(url);
    const imageMatch = /^\/t\/p\/([a-z0-9]+)(\/.+)$/.exec(url.pathname);
    if (imageMatch) return image(res, imageMatch[1]!, imageMatch[2]!);
    let reply: Reply;
    if (limit.remaining > 0) {
      limit.remaining--;
      reply = error(429, 25, 'Your request count (41) is over the allowed limit of (40).');
      reply.headers = { 'retry-after': String(limit.retryAfter) };
    } else if (!authorised(req, q)) reply = INVALID_KEY;
    else if (req.method !== 'GET') reply = NOT_FOUND;
    else reply = route(url.pathname, q);
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: q,
      headers: req.headers,
      body: undefined,
      status: reply.status,
      at: new Date(),
    });
    sendJson(res, reply.status, reply.body, reply.headers);
  }

  const server = await startFakeHttpServer(handle, {
    failReply: (res, status) =>
      sendJson(
        res,
        status,
        status === 503
          ? error(503, 9, 'Service offline: This service is temporarily offline, try again later.')
              .body
          : error(status, 11, 'Internal error: Something went wrong, contact TMDb.').body,
      ),
  });
  return {
    url: server.url,
    apiBase: `${server.url}/3`,
    imageBase: `${server.url}/t/p`,
    apiKey,
    readToken,
    today,
    fixtures,
    requests,
    faults: server.faults,
    rateLimit(times, retryAfterSeconds = 1) {
      limit.remaining = times;
      limit.retryAfter = retryAfterSeconds;
    },
    close: () => server.close(),
  };
}
