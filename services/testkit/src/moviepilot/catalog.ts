// Seed data for the fake MoviePilot: indexer search results (MoviePilot "Context" objects) and
// the shapes of its subscriptions. Field names follow MoviePilot 2.5's schemas.
import { createHash } from 'node:crypto';

export type MediaTypeCn = '电影' | '电视剧';
export const MEDIA_TYPES: MediaTypeCn[] = ['电影', '电视剧'];

export interface Subscription {
  id: number;
  name: string;
  year: string | null;
  type: MediaTypeCn;
  tmdbid: number;
  season: number | null;
  username: string;
  state: 'N' | 'R' | 'P';
  date: string;
}

export interface TorrentContext {
  meta_info: Record<string, unknown>;
  torrent_info: Record<string, unknown>;
  media_info: Record<string, unknown>;
}

/** One indexer result to seed: what MoviePilot's search returns is built from it. */
export interface TorrentSeed {
  tmdbid: number;
  type: MediaTypeCn;
  title: string;
  year: string;
  season?: number;
  release: string;
  size: number;
  seeders: number;
  site: string;
  volumeFactor: string;
}

const SEEDS: TorrentSeed[] = [
  {
    tmdbid: 438631,
    type: '电影',
    title: 'Dune',
    year: '2021',
    release: 'Dune.2021.2160p.UHD.BluRay.x265.10bit.HDR.TrueHD.7.1-FRDS',
    size: 58_000_000_000,
    seeders: 120,
    site: 'HDHome',
    volumeFactor: '免费',
  },
  {
    tmdbid: 438631,
    type: '电影',
    title: 'Dune',
    year: '2021',
    release: 'Dune.2021.1080p.BluRay.x264.DTS-HD.MA.7.1-CHD',
    size: 21_000_000_000,
    seeders: 56,
    site: 'CHDBits',
    volumeFactor: '普通',
  },
  {
    tmdbid: 1399,
    type: '电视剧',
    title: 'Game of Thrones',
    year: '2011',
    season: 1,
    release: 'Game.of.Thrones.S01.1080p.BluRay.x265-RARBG',
    size: 30_000_000_000,
    seeders: 33,
    site: 'HDHome',
    volumeFactor: '50%',
  },
];

/** A search result (MoviePilot `Context`); `index` keeps enclosure URLs and site ids distinct. */
export function torrentContext(seed: TorrentSeed, index: number): TorrentContext {
  const enclosure = `https://${seed.site.toLowerCase()}.example/download.php?id=${10_000 + index}`;
  const season = seed.season === undefined ? '' : `S${String(seed.season).padStart(2, '0')}`;
  return {
    meta_info: {
      name: seed.title,
      en_name: seed.title,
      year: seed.year,
      type: seed.type,
      begin_season: seed.season ?? null,
      season_episode: season,
      resource_pix: /2160p/.test(seed.release) ? '2160p' : '1080p',
      org_string: seed.release,
    },
    torrent_info: {
      site: index + 1,
      site_name: seed.site,
      site_order: index,
      title: seed.release,
      description: `${seed.title} ${seed.year}`,
      imdbid: null,
      enclosure,
      page_url: `https://${seed.site.toLowerCase()}.example/details.php?id=${10_000 + index}`,
      size: seed.size,
      seeders: seed.seeders,
      peers: Math.floor(seed.seeders / 4),
      grabs: seed.seeders * 10,
      pubdate: '2024-03-01 12:00:00',
      date_elapsed: '1月',
      uploadvolumefactor: 1,
      downloadvolumefactor:
        seed.volumeFactor === '免费' ? 0 : seed.volumeFactor === '50%' ? 0.5 : 1,
      volume_factor: seed.volumeFactor,
      hit_and_run: false,
      labels: [],
      category: seed.type,
    },
    media_info: {
      source: 'themoviedb',
      type: seed.type,
      title: seed.title,
      year: seed.year,
      tmdb_id: seed.tmdbid,
      season: seed.season ?? null,
      poster_path: `https://image.tmdb.org/t/p/w500/poster-${seed.tmdbid}.jpg`,
    },
  };
}

export function defaultTorrents(): TorrentContext[] {
  return SEEDS.map(torrentContext);
}

/** The download id MoviePilot returns is the torrent's info hash. */
export function downloadIdFor(torrent: Record<string, unknown>): string {
  return createHash('sha1')
    .update(String(torrent.enclosure ?? torrent.title))
    .digest('hex');
}

/** What `GET /subscribe/media/...` returns when nothing matches: an all-null Subscribe. */
export function emptySubscription(): Record<string, unknown> {
  const fields = ['id', 'name', 'year', 'type', 'keyword', 'tmdbid', 'doubanid', 'bangumiid'];
  const more = ['season', 'poster', 'backdrop', 'vote', 'description', 'state', 'username'];
  return Object.fromEntries([...fields, ...more].map((field) => [field, null]));
}
