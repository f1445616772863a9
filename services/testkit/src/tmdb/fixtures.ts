// Seed catalogue for the fake TMDB. Dates of the running show are computed from `today`, so it
// always has aired episodes, future ones and a `next_episode_to_air`, whatever day tests run.

import type {
  EpisodeFixture,
  MovieFixture,
  PersonFixture,
  TmdbFixtures,
  Translations,
  TvFixture,
} from './fixture-types.js';

export type * from './fixture-types.js';

const GENRES: TmdbFixtures['genres'] = {
  12: { en: 'Adventure', zh: '冒险' },
  18: { en: 'Drama', zh: '剧情' },
  35: { en: 'Comedy', zh: '喜剧' },
  878: { en: 'Science Fiction', zh: '科幻' },
  9648: { en: 'Mystery', zh: '悬疑' },
  10759: { en: 'Action & Adventure', zh: '动作冒险' },
  10765: { en: 'Sci-Fi & Fantasy', zh: 'Sci-Fi & Fantasy' },
};

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Weekly episodes starting on `start`, with stills only for those already aired. */
function weekly(start: string, count: number, today: string, runtime = 50): EpisodeFixture[] {
  return Array.from({ length: count }, (_, i) => {
    const airDate = addDays(start, i * 7);
    const aired = airDate <= today;
    return {
      episode_number: i + 1,
      air_date: airDate,
      runtime: aired ? runtime : null,
      still_path: aired ? `/still-${start}-${i + 1}.jpg` : null,
    };
  });
}

function movie(m: Partial<MovieFixture> & Pick<MovieFixture, 'id' | 'translations'>): MovieFixture {
  return {
    original_title: m.translations['en-US']!.title,
    original_language: 'en',
    release_date: '',
    runtime: 0,
    status: 'Released',
    imdb_id: null,
    genre_ids: [18],
    popularity: 10,
    vote_average: 7,
    vote_count: 100,
    poster_path: `/poster-${m.id}.jpg`,
    backdrop_path: `/backdrop-${m.id}.jpg`,
    adult: false,
    ...m,
  };
}

function t(en: string, enOverview: string, zh?: string, zhOverview?: string): Translations {
  const out: Translations = { 'en-US': { title: en, overview: enOverview } };
  if (zh) out['zh-CN'] = { title: zh, overview: zhOverview ?? '' };
  return out;
}

function movies(today: string): MovieFixture[] {
  const dune = t('Dune', 'Paul Atreides travels to Arrakis.', '沙丘', '保罗前往厄拉科斯。');
  return [
    movie({
      id: 438631,
      translations: dune,
      release_date: '2021-09-15',
      runtime: 155,
      imdb_id: 'tt1160419',
      genre_ids: [878, 12],
      popularity: 180.5,
      vote_average: 7.8,
      vote_count: 12500,
    }),
    movie({
      id: 693134,
      translations: t(
        'Dune: Part Two',
        'Paul unites with the Fremen.',
        '沙丘2',
        '保罗与弗雷曼人联手。',
      ),
      release_date: '2024-02-27',
      runtime: 167,
      imdb_id: 'tt15239678',
      genre_ids: [878, 12],
      popularity: 250.1,
      vote_average: 8.2,
      vote_count: 6900,
    }),
    // Unreleased: TMDB sends an empty release_date and a zero runtime.
    movie({
      id: 1170608,
      translations: t('Dune: Part Three', '', '沙丘3', ''),
      status: 'In Production',
      genre_ids: [878],
      popularity: 60.2,
      vote_average: 0,
      vote_count: 0,
      backdrop_path: null,
    }),
    movie({
      id: 9100001,
      translations: t('Dune Nights', 'Adults only.'),
      release_date: '2019-01-01',
      runtime: 80,
      adult: true,
      popularity: 5,
    }),
    // No Chinese translation: zh-CN readers get the default title and an empty overview.
    movie({
      id: 14337,
      translations: t('Primer', 'Four engineers build a time machine.'),
      release_date: '2004-10-08',
      runtime: 77,
      imdb_id: 'tt0390384',
      genre_ids: [878, 18],
      popularity: 15.3,
    }),
    // Opens in three weeks: `/movie/upcoming` lists it, the popular lists do not.
    movie({
      id: 1311031,
      translations: t(
        'The Long Orbit',
        'A lone pilot steers a derelict station home.',
        '漫长轨道',
        '一名孤独的飞行员驾驶废弃空间站返航。',
      ),
      release_date: addDays(today, 21),
      runtime: 128,
      status: 'Post Production',
      genre_ids: [878, 12],
      popularity: 95.4,
      vote_average: 0,
      vote_count: 0,
    }),
    // Enough titles sharing a word to fill two pages of search results.
    ...Array.from({ length: 25 }, (_, i) =>
      movie({
        id: 800001 + i,
        translations: t(`Harbor Lights ${i + 1}`, `Part ${i + 1}.`, `港湾之光 ${i + 1}`),
        release_date: addDays('2000-01-01', i * 200),
        runtime: 90,
        popularity: 50 - i,
      }),
    ),
  ];
}

function tvShows(today: string): TvFixture[] {
  const gotSeasons = [10, 10, 10, 10, 10, 10, 7, 6].map((count, i) => ({
    season_number: i + 1,
    air_date: addDays('2011-04-17', i * 365),
    poster_path: `/got-s${i + 1}.jpg`,
    episodes: weekly(addDays('2011-04-17', i * 365), count, today, 60),
  }));
  const seasonTwoStart = addDays(today, -35);
  return [
    {
      id: 1399,
      original_name: 'Game of Thrones',
      original_language: 'en',
      translations: t(
        'Game of Thrones',
        'Nine noble families fight.',
        '权力的游戏',
        '九大家族争夺王位。',
      ),
      first_air_date: '2011-04-17',
      status: 'Ended',
      in_production: false,
      genre_ids: [10765, 18, 10759],
      popularity: 400.2,
      vote_average: 8.4,
      vote_count: 24000,
      poster_path: '/got-poster.jpg',
      backdrop_path: '/got-backdrop.jpg',
      adult: false,
      origin_country: ['US'],
      tvdb_id: 121361,
      imdb_id: 'tt0944947',
      seasons: [
        {
          season_number: 0,
          air_date: '2010-12-05',
          poster_path: null,
          episodes: weekly('2010-12-05', 3, today, 15),
        },
        ...gotSeasons,
      ],
    },
    {
      id: 95396,
      original_name: 'Severance',
      original_language: 'en',
      translations: t(
        'Severance',
        'Work memories are split from home.',
        '人生切割术',
        '工作与生活的记忆被分割。',
      ),
      first_air_date: '2022-02-17',
      status: 'Returning Series',
      in_production: true,
      genre_ids: [18, 9648, 10765],
      popularity: 220.7,
      vote_average: 8.4,
      vote_count: 2400,
      poster_path: '/severance-poster.jpg',
      backdrop_path: '/severance-backdrop.jpg',
      adult: false,
      origin_country: ['US'],
      tvdb_id: 371980,
      imdb_id: 'tt11280740',
      seasons: [
        {
          season_number: 0,
          air_date: '2022-02-10',
          poster_path: null,
          episodes: weekly('2022-02-10', 1, today, 5),
        },
        {
          season_number: 1,
          air_date: '2022-02-17',
          poster_path: '/sev-s1.jpg',
          episodes: weekly('2022-02-17', 9, today),
        },
        // Airing now: six episodes aired (days -35 … 0), four still to come.
        {
          season_number: 2,
          air_date: seasonTwoStart,
          poster_path: '/sev-s2.jpg',
          episodes: weekly(seasonTwoStart, 10, today),
        },
        // Announced, nothing scheduled: no air date and no episodes.
        { season_number: 3, air_date: null, poster_path: null, episodes: [] },
      ],
    },
    {
      id: 9200001,
      original_name: '静かな港',
      original_language: 'ja',
      translations: t('Quiet Harbor', 'A fishing town mystery.', '静港', '渔村悬疑。'),
      first_air_date: '2023-10-05',
      status: 'Ended',
      in_production: false,
      genre_ids: [9648],
      popularity: 12.4,
      vote_average: 7.1,
      vote_count: 40,
      poster_path: '/quiet-harbor.jpg',
      backdrop_path: null,
      adult: false,
      origin_country: ['JP'],
      // Not on TheTVDB: Sonarr cannot add it (spec 50 §4.2 "no TVDB id").
      tvdb_id: null,
      imdb_id: null,
      seasons: [
        {
          season_number: 1,
          air_date: '2023-10-05',
          poster_path: null,
          episodes: weekly('2023-10-05', 8, today, 24),
        },
      ],
    },
  ];
}

const people: PersonFixture[] = [
  {
    id: 1190668,
    name: 'Timothée Chalamet',
    original_name: 'Timothée Chalamet',
    known_for_department: 'Acting',
    popularity: 90.1,
    profile_path: '/chalamet.jpg',
    known_for_movie_ids: [438631, 693134],
    roles: { 'movie:438631': 'Paul Atreides', 'movie:693134': 'Paul Atreides' },
  },
  {
    id: 17414,
    name: 'Adam Scott',
    original_name: 'Adam Scott',
    known_for_department: 'Acting',
    popularity: 30.2,
    profile_path: '/adam-scott.jpg',
    known_for_movie_ids: [],
    known_for_tv_ids: [95396],
    roles: { 'tv:95396': 'Mark Scout' },
  },
  // A person whose name matches "dune": multi search returns people, and Usher must drop them.
  {
    id: 3300001,
    name: 'Dune Harrow',
    original_name: 'Dune Harrow',
    known_for_department: 'Directing',
    popularity: 2.1,
    profile_path: null,
    known_for_movie_ids: [438631],
  },
];

export function defaultTmdbFixtures(today: string): TmdbFixtures {
  return { movies: movies(today), tv: tvShows(today), people, genres: GENRES };
}
