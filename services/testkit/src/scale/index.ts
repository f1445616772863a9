// The scale fixture (issue 33): a large community for `npm run bench:scale`.
export {
  addRetentionBacklog,
  buildScaleCommunity,
  scaleLayout,
  scaleMediaUserId,
  scaleUsername,
} from './community.js';
export type { ScaleCommunityOptions, ScaleLayout, SqlRunner } from './community.js';
export { buildScaleMedia } from './media.js';
export type { ScaleMedia, ScaleMediaOptions } from './media.js';
export { scaleTmdbSeries } from './tmdb.js';
