// The scale fixture's TMDB side: the library's series (`buildScaleMedia`, TMDB ids 500001…; the
// first 500 are the ones the community follows), each returning with one season of twenty
// weekly episodes around `today`.
import type { TvFixture } from '../tmdb/fixture-types.js';

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** TV fixtures for the library's series (same ids and names as the media fixture's). */
export function scaleTmdbSeries(today: string, count = 500): TvFixture[] {
  const t = Date.parse(`${today}T00:00:00Z`);
  const out: TvFixture[] = [];
  for (let s = 1; s <= count; s++) {
    const first = t + (-9 * 7 + (s % 7)) * DAY;
    out.push({
      id: 500_000 + s,
      original_name: `Scale series ${s}`,
      original_language: 'en',
      translations: { en: { title: `Scale series ${s}`, overview: 'A followed series.' } },
      first_air_date: isoDay(first),
      status: 'Returning Series',
      in_production: true,
      genre_ids: [18],
      popularity: 10 + (s % 50),
      vote_average: 7,
      vote_count: 100,
      poster_path: null,
      backdrop_path: null,
      adult: false,
      origin_country: ['US'],
      tvdb_id: null,
      imdb_id: null,
      seasons: [
        {
          season_number: 1,
          air_date: isoDay(first),
          poster_path: null,
          episodes: Array.from({ length: 20 }, (_, e) => ({
            episode_number: e + 1,
            air_date: isoDay(first + e * 7 * DAY),
            runtime: 45,
            still_path: null,
          })),
        },
      ],
    });
  }
  return out;
}
