// What MoviePilot's indexers "find" for the demo world: one to three releases per released title
// (whole seasons for shows), so manual search in the demo has results for any TMDB title.
import type { Subscription, TorrentContext, TorrentSeed } from '../moviepilot/catalog.js';
import { torrentContext } from '../moviepilot/catalog.js';
import type { Rng } from './prng.js';
import type { DemoWorld } from './world.js';

const SITES = ['HDHome', 'CHDBits', 'OurBits', 'PTHome', 'Audiences'];
const GROUPS = ['FRDS', 'CHD', 'HDH', 'NTb', 'FLUX', 'OurTV'];
const GB = 1_000_000_000;

const dotted = (title: string) => title.replace(/[^A-Za-z0-9]+/g, '.').replace(/^\.|\.$/g, '');

function release(rng: Rng, base: string, uhd: boolean): string {
  const body = uhd
    ? rng.pick(['UHD.BluRay.x265.10bit.HDR.TrueHD.7.1', 'WEB-DL.DV.HDR.H265.DDP5.1.Atmos'])
    : rng.pick(['BluRay.x264.DTS-HD.MA.5.1', 'WEB-DL.H264.DDP5.1', 'BluRay.x265.10bit.AAC']);
  return `${base}.${uhd ? '2160p' : '1080p'}.${body}-${rng.pick(GROUPS)}`;
}

function seeds(rng: Rng, world: DemoWorld): TorrentSeed[] {
  const out: TorrentSeed[] = [];
  const extra = () => ({
    seeders: Math.round(2 + rng.next() ** 2 * 300),
    site: rng.pick(SITES),
    volumeFactor: rng.weighted([
      ['普通', 6],
      ['50%', 2],
      ['免费', 2],
    ]),
  });
  for (const m of world.tmdb.movies) {
    if (m.adult || !m.release_date || m.release_date > world.today) continue;
    const title = m.translations['en-US']?.title ?? m.original_title;
    const year = m.release_date.slice(0, 4);
    const count = rng.int(1, 3);
    for (let i = 0; i < count; i++) {
      const uhd = i === 0 ? rng.chance(0.5) : !rng.chance(0.5);
      out.push({
        tmdbid: m.id,
        type: '电影',
        title,
        year,
        release: release(rng, `${dotted(title)}.${year}`, uhd),
        size: Math.round((uhd ? rng.int(35, 75) : rng.int(8, 25)) * GB),
        ...extra(),
      });
    }
  }
  for (const s of world.tmdb.tv) {
    if (s.adult) continue;
    const title = s.translations['en-US']?.title ?? s.original_name;
    for (const season of s.seasons) {
      const aired = season.episodes.filter((e) => e.air_date && e.air_date <= world.today);
      if (season.season_number < 1 || aired.length === 0) continue;
      const code = `S${String(season.season_number).padStart(2, '0')}`;
      const uhd = rng.chance(0.4);
      out.push({
        tmdbid: s.id,
        type: '电视剧',
        title,
        year: s.first_air_date.slice(0, 4),
        season: season.season_number,
        release: release(rng, `${dotted(title)}.${code}`, uhd),
        size: Math.round(aired.length * (uhd ? rng.int(4, 9) : rng.int(1, 3)) * GB),
        ...extra(),
      });
    }
  }
  return out;
}

/** Search results for the world, numbered after `offset` existing results (enclosure ids). */
export function worldTorrents(rng: Rng, world: DemoWorld, offset: number): TorrentContext[] {
  return seeds(rng, world).map((seed, i) => torrentContext(seed, offset + i));
}

/**
 * A few subscriptions already running: shows whose next season is dated but not out yet. Ids come
 * from the fake's own allocator so later subscriptions never reuse them.
 */
export function worldSubscriptions(world: DemoWorld, allocate: () => number): Subscription[] {
  const waiting = world.tmdb.tv
    .filter((s) => s.seasons.some((season) => (season.air_date ?? '') > world.today))
    .slice(0, 4);
  return waiting.map((s) => {
    const next = s.seasons.find((season) => (season.air_date ?? '') > world.today);
    return {
      id: allocate(),
      name: s.translations['en-US']?.title ?? s.original_name,
      year: s.first_air_date.slice(0, 4),
      type: '电视剧',
      tmdbid: s.id,
      season: next?.season_number ?? 1,
      username: 'admin',
      state: 'R',
      date: `${world.today} 08:00:00`,
    };
  });
}
