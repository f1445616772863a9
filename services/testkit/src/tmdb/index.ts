export { startFakeTmdb, type FakeTmdb, type FakeTmdbOptions } from './server.js';
export {
  addDays,
  defaultTmdbFixtures,
  type EpisodeFixture,
  type MovieFixture,
  type PersonFixture,
  type SeasonFixture,
  type TmdbFixtures,
  type Translations,
  type TvFixture,
} from './fixtures.js';
