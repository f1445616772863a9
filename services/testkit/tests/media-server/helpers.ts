// Helpers that call the fake the way each server is documented to be called (§1.3).
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

import { startFakeMediaServer } from '../../src/media-server/index.js';
import type { FakeMediaServer, FakeMediaServerOptions } from '../../src/media-server/index.js';

export const API_KEY = 'fa4e7c1d2b3a49f0a1b2c3d4e5f60718';

export function start(
  flavour: 'emby' | 'jellyfin',
  extra: Partial<FakeMediaServerOptions> = {},
): Promise<FakeMediaServer> {
  return startFakeMediaServer({ flavour, apiKey: API_KEY, seed: true, ...extra });
}

/** Where an adapter would point: Emby's API lives under `/emby`. */
export function apiBase(server: FakeMediaServer): string {
  return server.state.flavour === 'emby' ? `${server.url}/emby` : server.url;
}

/** The admin headers each adapter sends (Emby: both forms; Jellyfin: MediaBrowser only). */
export function adminHeaders(server: FakeMediaServer, key = API_KEY): Record<string, string> {
  const mb = { authorization: `MediaBrowser Token="${key}"` };
  return server.state.flavour === 'emby' ? { 'x-emby-token': key, ...mb } : mb;
}

export function userHeaders(server: FakeMediaServer, token: string): Record<string, string> {
  return server.state.flavour === 'emby'
    ? { 'x-emby-token': token }
    : { authorization: `MediaBrowser Token="${token}"` };
}

const clientList = (deviceId: string): string =>
  `Client="Usher", Device="Usher", DeviceId="${encodeURIComponent(deviceId)}", Version="0.1.0"`;

/** AuthenticateByName headers as §1.3 prescribes per server. */
export function loginHeaders(server: FakeMediaServer, deviceId: string): Record<string, string> {
  if (server.state.flavour === 'jellyfin') {
    return { authorization: `MediaBrowser ${clientList(deviceId)}` };
  }
  return {
    'x-emby-authorization': `Emby UserId="", ${clientList(deviceId)}`,
    authorization: `MediaBrowser ${clientList(deviceId)}`,
  };
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: () => unknown;
}

export async function call(
  server: FakeMediaServer,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown; raw?: boolean } = {},
): Promise<Answer> {
  const headers = { ...opts.headers };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = opts.raw ? `${server.url}${path}` : `${apiBase(server)}${path}`;
  const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text,
    json: () => JSON.parse(text) as unknown,
  };
}

/** GET with admin headers, returning parsed JSON (fails the test on a non-200). */
export async function adminGet<T = Record<string, unknown>>(
  server: FakeMediaServer,
  path: string,
): Promise<T> {
  const res = await call(server, 'GET', path, { headers: adminHeaders(server) });
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${res.text}`);
  return res.json() as T;
}

export async function login(
  server: FakeMediaServer,
  username: string,
  pw: string,
  deviceId: string,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  return call(server, 'POST', '/Users/AuthenticateByName', {
    headers: { ...loginHeaders(server, deviceId), ...extraHeaders },
    body: { Username: username, Pw: pw },
  });
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
  url: string;
}

/** A tiny webhook receiver standing in for Usher's endpoint. */
export async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  close: () => Promise<void>;
}> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks), url: req.url ?? '' });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/api/v1/webhooks/media-server`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
