// Word lists for invented titles, people and devices. Invented titles keep the demo clear of real
// catalogue data while still reading like a streaming library. Lists are comma-separated text so
// they stay compact under prettier.

const list = (text: string): readonly string[] =>
  text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);

export const ADJECTIVES = list(`
  Silent, Crimson, Hollow, Golden, Broken, Midnight, Paper, Iron, Velvet, Distant, Burning,
  Frozen, Quiet, Restless, Electric, Wild, Hidden, Last, Lonely, Bright, Northern, Savage, Glass,
  Silver, Scarlet, Endless, Forgotten, Secret, Crooked, Gentle, Hungry, Lucky, Painted, Salt,
  Stolen, Sunken, Tender, Twisted, Wandering, Winter`);

export const NOUNS = list(`
  Harbor, Orchard, Lighthouse, Kingdom, Frontier, Garden, River, Empire, Signal, Machine, Summer,
  Horizon, Station, Circus, Island, Archive, Witness, Compass, Lantern, Mirror, Voyage, Tide,
  Orbit, Canyon, Cathedral, Detective, Orchestra, Protocol, Republic, Satellite, Shepherd, Tenant,
  Theory, Valley, Verdict, Village, Wolf, Engine, Parade, Crown`);

export const PLACES = list(`
  Ashford, Marrow Bay, Kestrel Point, the North, Saint Clair, Varna, Eastwick, Halden, Port Regis,
  Calder Street, the Lowlands, Brightwater, Fenmoor, Oldcastle`);

/** Episode titles: real shows mix short nouns and phrases like these. */
export const EPISODE_TITLES = list(`
  Arrival, The Offer, Low Tide, Homecoming, The Long Night, Fault Lines, Inventory, Open Water,
  The Visitor, Second Chances, Blackout, The Ledger, Crossroads, Old Friends, Exit Wounds,
  The Harvest, Quarantine, Thaw, The Hearing, Undertow, Static, Lost and Found, The Bargain,
  First Light, Dead Reckoning, The Reunion, Smoke Signals, Paper Trail, The Storm, Checkmate,
  Overtime, Safe Harbor`);

export const FIRST_NAMES = list(`
  maya, jonas, priya, lucas, sofia, mateo, hana, oliver, amara, felix, yuki, leon, ines, noah,
  chloe, arjun, elena, tariq, freya, diego, nadia, sam, lena, omar, rosa, kai, zoe, ivan, aisha,
  theo, mei, hugo, lila, ben, clara, ravi, nora, emil, sara, yusuf`);

/** TMDB genre ids with their English and Chinese names (movie and TV lists). */
export const GENRE_NAMES: Record<number, Record<string, string>> = {
  28: { en: 'Action', zh: '动作' },
  12: { en: 'Adventure', zh: '冒险' },
  16: { en: 'Animation', zh: '动画' },
  35: { en: 'Comedy', zh: '喜剧' },
  80: { en: 'Crime', zh: '犯罪' },
  99: { en: 'Documentary', zh: '纪录' },
  18: { en: 'Drama', zh: '剧情' },
  10751: { en: 'Family', zh: '家庭' },
  14: { en: 'Fantasy', zh: '奇幻' },
  36: { en: 'History', zh: '历史' },
  27: { en: 'Horror', zh: '恐怖' },
  9648: { en: 'Mystery', zh: '悬疑' },
  10749: { en: 'Romance', zh: '爱情' },
  878: { en: 'Science Fiction', zh: '科幻' },
  53: { en: 'Thriller', zh: '惊悚' },
  10759: { en: 'Action & Adventure', zh: '动作冒险' },
  10765: { en: 'Sci-Fi & Fantasy', zh: 'Sci-Fi & Fantasy' },
  10768: { en: 'War & Politics', zh: '战争与政治' },
};

export const MOVIE_GENRES = [28, 12, 16, 35, 80, 99, 18, 10751, 14, 36, 27, 9648, 10749, 878, 53];
export const TV_GENRES = [10759, 16, 35, 80, 99, 18, 10751, 9648, 10765, 10768];

/** TMDB original language, the ISO 639-2 code servers report for its audio, and a weight. */
export const LANGUAGES: readonly (readonly [string, string, number])[] = [
  ['en', 'eng', 70],
  ['fr', 'fra', 6],
  ['ja', 'jpn', 6],
  ['ko', 'kor', 6],
  ['es', 'spa', 5],
  ['de', 'deu', 3],
  ['zh', 'zho', 3],
  ['da', 'dan', 1],
];
