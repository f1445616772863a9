declare const __USHER_VERSION__: string | undefined;

/** Set by the build (esbuild `define`); tests and tools see the development marker. */
export const VERSION: string =
  typeof __USHER_VERSION__ === 'string' ? __USHER_VERSION__ : '0.0.0-dev';
