// Route table and matching. Paths match case-insensitively, as on both servers.
import { authRoutes } from './auth.js';
import type { Route } from './http.js';
import { imageRoutes } from './images.js';
import { itemRoutes } from './items.js';
import { playbackRoutes } from './playback.js';
import { playingRoutes } from './playing.js';
import { remoteControlRoutes } from './remote-control.js';
import { sessionRoutes } from './sessions.js';
import { systemRoutes } from './system.js';
import type { MediaState } from './types.js';
import { userRoutes } from './users.js';

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const pattern = route.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{(\w+)\\?\}/g, (_m, n: string) => {
      names.push(n);
      return '([^/]+)';
    });
  return { route, regex: new RegExp(`^${pattern}/?$`, 'i'), names };
}

const TABLE: CompiledRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...userRoutes,
  ...sessionRoutes,
  ...playingRoutes,
  ...remoteControlRoutes,
  ...itemRoutes,
  ...imageRoutes,
  ...playbackRoutes,
].map(compile);

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed' }
  | { kind: 'none' };

export function matchRoute(state: MediaState, method: string, path: string): RouteMatch {
  let pathMatched = false;
  for (const c of TABLE) {
    const { route } = c;
    if (route.modes && !route.modes.includes(state.mode)) continue;
    if (route.when && !route.when(state)) continue;
    const m = c.regex.exec(path);
    if (!m) continue;
    if (route.method !== method) {
      pathMatched = true;
      continue;
    }
    const params: Record<string, string> = {};
    c.names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { kind: 'route', route, params };
  }
  return pathMatched ? { kind: 'method-not-allowed' } : { kind: 'none' };
}

/** The routes a server in this state answers, for contract tests against the OpenAPI files. */
export function routeTable(state: MediaState): { method: string; path: string }[] {
  return TABLE.filter(({ route }) => !route.modes || route.modes.includes(state.mode))
    .filter(({ route }) => !route.when || route.when(state))
    .map(({ route }) => ({ method: route.method, path: route.path }));
}
