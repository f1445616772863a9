// The fake's HTTP server and its test-facing handle (lifecycle, faults, log, webhooks).
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

import { handleControl } from './control.js';
import { text } from './http.js';
import { handleRequest, readBody } from './pipeline.js';
import { seedMediaLibrary } from './seed.js';
import type { SeedOptions, SeededLibrary } from './seed.js';
import { createMediaState } from './state.js';
import type { FaultRule, Flavour, MediaServerMode, MediaState, RequestLogEntry } from './types.js';
import { emitItemAdded, emitTestNotification } from './webhooks.js';
import type { WebhookDelivery, WebhookOptions } from './webhooks.js';

export interface FakeMediaServerOptions {
  flavour: Flavour;
  /** The API key the server accepts (admin rights, like a dashboard-created key). */
  apiKey: string;
  /** Defaults: Emby `4.8.11.0`, Jellyfin `12.0.0`; a 10.x Jellyfin behaves as `jellyfin10`. */
  version?: string;
  /** The server's own base path, e.g. `/jellyfin`; requests outside it get 404. */
  basePath?: string;
  /** Jellyfin `EnableLegacyAuthorization`; defaults to true before 12.0 and false from 12.0. */
  legacyAuthorization?: boolean;
  /**
   * Whether Emby answers only under `/emby` (the strict reading of §1.8). Real Emby also serves
   * unprefixed paths, which is the default here.
   */
  embyPrefixOnly?: boolean;
  serverName?: string;
  /** Zone of the Playback Reporting `DateCreated` text (default UTC). */
  timeZone?: string;
  /** Clock for sessions, item dates and playback rows. */
  now?: () => Date;
  /** Seed the deterministic library at start (see `seedMediaLibrary`). */
  seed?: boolean | SeedOptions;
}

export interface FakeMediaServer {
  /** Root URL with the base path, without `/emby` and without a trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly mode: MediaServerMode;
  readonly state: MediaState;
  /** Present when `seed` was requested at start. */
  readonly seeded?: SeededLibrary;
  close(): Promise<void>;
  /**
   * Stops listening and drops open connections; `up()` re-opens the same port. Same names as
   * the shared fake-server switches.
   */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Adds latency to every request, or to those whose path matches. */
  slow(ms: number, path?: string | RegExp): void;
  /** Answers `status` instead of handling matching requests (all when no path). */
  fail(
    status: number,
    path?: string | RegExp,
    opts?: Pick<FaultRule, 'times' | 'method' | 'body'>,
  ): void;
  /** Destroys the socket of matching requests without answering. */
  dropConnections(path?: string | RegExp, opts?: Pick<FaultRule, 'times' | 'method'>): void;
  clearFaults(): void;
  /** Logged requests, optionally only those whose raw path contains `path` (any case). */
  requests(path?: string): RequestLogEntry[];
  clearRequests(): void;
  emitItemAdded(itemId: string, targetUrl: string, opts?: WebhookOptions): Promise<WebhookDelivery>;
  emitTestNotification(targetUrl: string, opts?: WebhookOptions): Promise<WebhookDelivery>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

function stop(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const s of sockets) s.destroy();
    sockets.clear();
  });
}

/** Starts a fake Emby or Jellyfin server on 127.0.0.1 with an ephemeral port. */
export async function startFakeMediaServer(opts: FakeMediaServerOptions): Promise<FakeMediaServer> {
  const state = createMediaState(opts);
  const basePath = (opts.basePath ?? '').replace(/\/+$/, '');
  const pipeline = { basePath, embyPrefixOnly: opts.embyPrefixOnly === true };
  const seeded = opts.seed
    ? seedMediaLibrary(state, opts.seed === true ? {} : opts.seed)
    : undefined;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://fake.local').pathname;
      if (path.startsWith('/__fake')) {
        const body = raw.length ? (JSON.parse(raw.toString('utf8')) as unknown) : undefined;
        const reply =
          (await handleControl(state, req.method ?? 'GET', path, body)) ?? text(404, '');
        res.writeHead(reply.status, reply.headers).end(reply.body);
        return;
      }
      await handleRequest(state, pipeline, req, res, raw);
    })().catch((err: unknown) => {
      // Last resort so one broken request never takes the fake down mid-test.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, 0);
  const addRule = (rule: FaultRule): void => {
    state.faults.rules.push(rule);
  };
  const withPath = (path?: string | RegExp) => (path === undefined ? {} : { path });
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    port,
    mode: state.mode,
    state,
    ...(seeded ? { seeded } : {}),
    close: () => stop(server, sockets),
    down: () => stop(server, sockets),
    up: async () => {
      if (!server.listening) await listen(server, port);
    },
    slow: (ms, path) => {
      if (path === undefined) state.faults.delayMs = ms;
      else addRule({ path, delayMs: ms });
    },
    fail: (status, path, o = {}) => addRule({ ...withPath(path), status, ...o }),
    dropConnections: (path, o = {}) => addRule({ ...withPath(path), reset: true, ...o }),
    clearFaults: () => {
      state.faults.delayMs = 0;
      state.faults.rules = [];
    },
    requests: (path) =>
      path === undefined
        ? [...state.requests]
        : state.requests.filter((r) => r.path.toLowerCase().includes(path.toLowerCase())),
    clearRequests: () => {
      state.requests.length = 0;
    },
    emitItemAdded: (itemId, targetUrl, o) => emitItemAdded(state, itemId, targetUrl, o),
    emitTestNotification: (targetUrl, o) => emitTestNotification(state, targetUrl, o),
  };
}
