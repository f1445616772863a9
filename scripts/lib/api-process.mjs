// How the scripts of a source install run the API: the bundle `npm start` builds, the root .env
// loaded by Node itself (`--env-file`, which never overrides the shell) and the checkout as the
// working directory, so `./data/db` is the same folder for `npm start` and every command.
import { join } from 'node:path';

/** The bundle `services/api/build.mjs` writes. */
export const apiMain = (root) => join(root, 'services/api/dist/main.js');

/**
 * The API process for `root`: `{ command, args, cwd }` to hand to spawn. `main` defaults to the
 * built bundle; `args` follow it (e.g. `reset-admin-password --username admin`).
 */
export function apiProcess({ root, main = apiMain(root), args = [] }) {
  return {
    command: process.execPath,
    args: ['--env-file', join(root, '.env'), main, ...args],
    cwd: root,
  };
}
