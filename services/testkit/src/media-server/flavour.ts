// Apart from types.ts so the playback store, which types.ts names, can use it without a circle.
export type Flavour = 'emby' | 'jellyfin';
