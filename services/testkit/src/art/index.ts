export { drawArt, type ArtInput, type Rgb } from './poster.js';
export { encodeJpeg, encodePng } from './encode.js';
