// Public surface of the metadata module (TMDB search and its cache). Other modules and app.ts
// import from here, never from the files behind it.
export { metadataRoutes, type AvailabilityLookup, type MetadataRouteDeps } from './routes.js';
export { cachedSeason, cachedTv } from './service.js';
