import type http from 'node:http';
import { parseBody } from '../fake-server/body.js';
import { startFakeHttpServer, type FaultSwitches } from '../fake-server/http-server.js';
import { queryOf, sendJson, sendText, type RecordedRequest } from '../fake-server/reply.js';
import { signJwt, verifyJwt } from './jwt.js';
import {
  detail,
  findRoute,
  missingFields,
  type MpReply,
  type MpRequest,
  type Route,
} from './routing.js';
import { emulationRoutes, servarrRoutes } from './servarr.js';
import { MoviePilotState } from './state.js';
import { v1Routes } from './v1.js';

/** `moviepilot`: MoviePilot 2.5 (v1 API + /api/v3 emulation); `radarr`/`sonarr`: the real apps. */
export type MoviePilotMode = 'moviepilot' | 'radarr' | 'sonarr';

export interface FakeMoviePilotOptions {
  mode?: MoviePilotMode;
  username?: string;
  password?: string;
  /** MoviePilot's static API_TOKEN, or the Radarr/Sonarr API key in those modes. */
  apiToken?: string;
  /** Access-token lifetime; MoviePilot's default ACCESS_TOKEN_EXPIRE_MINUTES is 8 days. */
  tokenLifetimeSeconds?: number;
  /** Clock in ms, for token expiry. */
  now?: () => number;
}

export interface FakeMoviePilot {
  readonly url: string;
  readonly mode: MoviePilotMode;
  readonly username: string;
  readonly password: string;
  readonly apiToken: string;
  readonly state: MoviePilotState;
  readonly requests: RecordedRequest[];
  readonly faults: FaultSwitches;
  /** A JWT as login would issue it; a negative lifetime gives an expired one. */
  issueToken(lifetimeSeconds?: number): string;
  /** Makes subscriptions of `tmdbId` fail with HTTP 200 and success:false. */
  refuse(tmdbId: number, message?: string): void;
  close(): Promise<void>;
}

const SECRET = 'fake-moviepilot-secret-key';

/** Starts a fake MoviePilot 2.5 (or a strict Radarr/Sonarr) on 127.0.0.1. */
export async function startFakeMoviePilot(
  options: FakeMoviePilotOptions = {},
): Promise<FakeMoviePilot> {
  const mode = options.mode ?? 'moviepilot';
  const username = options.username ?? 'admin';
  const password = options.password ?? 'correct horse battery staple';
  const apiToken = options.apiToken ?? 'mp-api-token-0123456789abcdef';
  const lifetime = options.tokenLifetimeSeconds ?? 8 * 24 * 3600;
  const now = options.now ?? Date.now;
  const state = new MoviePilotState();
  const requests: RecordedRequest[] = [];
  const routes: Route[] =
    mode === 'moviepilot' ? [...v1Routes, ...emulationRoutes] : servarrRoutes(mode);

  const issueToken = (seconds = lifetime) =>
    signJwt(
      {
        exp: Math.floor(now() / 1000) + seconds,
        sub: '1',
        username,
        super_user: true,
        level: 2,
      },
      SECRET,
    );

  function login(req: MpRequest): MpReply {
    const form = req.body.kind === 'form' || req.body.kind === 'multipart';
    const fields = (form ? req.body.value : {}) as Record<string, string>;
    const missing = ['username', 'password'].filter((f) => !fields[f]);
    if (missing.length > 0) return missingFields(missing, null);
    if (fields.username !== username) return detail(401, '用户名、密码、二次校验码不正确');
    if (fields.password !== password) return detail(401, '用户名、密码或二次校验码不正确');
    return {
      status: 200,
      body: {
        access_token: issueToken(),
        token_type: 'bearer',
        super_user: true,
        user_id: 1,
        user_name: username,
        avatar: null,
        level: 2,
        permissions: {},
        widzard: true,
      },
    };
  }

  /** Returns an error reply when the route's credentials are missing or wrong. */
  function authenticate(route: Route, req: MpRequest): MpReply | null {
    if (route.auth === 'none') return null;
    if (route.auth === 'apitoken') {
      return req.query.token === apiToken ? null : detail(401, 'token校验不通过');
    }
    if (route.auth === 'apikey') {
      const given = req.query.apikey ?? req.headers['x-api-key'];
      if (given === apiToken) return null;
      // Radarr and Sonarr answer an empty 401; MoviePilot names the failed check.
      return mode === 'moviepilot' ? detail(401, 'apikey校验不通过') : { status: 401 };
    }
    const header = req.headers.authorization ?? '';
    const [scheme, token] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) {
      return detail(401, 'Not authenticated', { 'www-authenticate': 'Bearer' });
    }
    const claims = verifyJwt(token, SECRET, Math.floor(now() / 1000));
    if (!claims) return detail(403, 'token校验不通过');
    req.username = claims.username;
    return null;
  }

  function dispatch(req: MpRequest): MpReply {
    const path = req.url.pathname;
    if (mode === 'moviepilot' && req.method === 'POST' && path === '/api/v1/login/access-token') {
      return login(req);
    }
    const found = findRoute(routes, req.method, path);
    if ('route' in found && found.route) {
      return authenticate(found.route, req) ?? found.route.handle(req, found.match, state);
    }
    const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
    if (mode === 'moviepilot' && findRoute(routes, req.method, toggled).pathMatched) {
      // Starlette's redirect_slashes answers 307 to the other spelling, before any auth.
      const location = `http://${req.headers.host ?? '127.0.0.1'}${toggled}${req.url.search}`;
      return { status: 307, headers: { location } };
    }
    if (found.pathMatched) return detail(405, 'Method Not Allowed');
    return mode === 'moviepilot' ? detail(404, 'Not Found') : { status: 404 };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await parseBody(req);
    const request: MpRequest = {
      method: req.method ?? 'GET',
      url,
      query: queryOf(url),
      headers: req.headers,
      body,
    };
    const reply = dispatch(request);
    requests.push({
      method: request.method,
      path: url.pathname,
      query: request.query,
      headers: req.headers,
      body: body.value,
      status: reply.status,
      at: new Date(now()),
    });
    if (reply.text !== undefined) return sendText(res, reply.status, reply.text);
    if (reply.body === undefined) {
      res.writeHead(reply.status, { 'content-length': '0', ...reply.headers });
      res.end();
      return;
    }
    sendJson(res, reply.status, reply.body, reply.headers);
  }

  const server = await startFakeHttpServer(handle, {
    failReply: (res, status) => sendText(res, status, 'Internal Server Error'),
  });
  return {
    url: server.url,
    mode,
    username,
    password,
    apiToken,
    state,
    requests,
    faults: server.faults,
    issueToken,
    refuse: (tmdbId, message = '未识别到媒体信息') => void state.refused.set(tmdbId, message),
    close: () => server.close(),
  };
}
