// The address `npm start` listens on. A first start prints a temporary admin password, and
// /metrics and the secret-guarded internal routes answer on the API's port: on every interface
// they were reachable from the network until someone thought of HOST. So `npm start` keeps to
// loopback until an operator sets HOST, in the shell or in .env. The API's own default (every
// interface) stays, because the Compose and Helm containers must be reachable from their peers.
import { parseEnv } from 'node:util';

/** The default of a bare-metal `npm start`: this machine only. */
export const START_HOST = '127.0.0.1';

/**
 * HOST for the API process `npm start` spawns: undefined when the shell or .env already sets
 * one (the operator's choice wins, `--env-file` fills it in), else `START_HOST`.
 */
export function startHost(shellEnv, envFileText) {
  if (shellEnv.HOST) return undefined;
  const fileEnv = envFileText ? parseEnv(envFileText) : {};
  return fileEnv.HOST ? undefined : START_HOST;
}
