// Public surface of the media module (the member's media home, poster proxy, playback portrait
// and history, live sessions). app.ts imports from here, never from the files behind it.
export { mediaRoutes } from './routes.js';
export { usersByMediaId, type LinkedUser } from './queries.js';
export { PosterSigner, type PosterUser } from './poster-signer.js';
