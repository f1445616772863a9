// One request through the fake: prefix rules, request log, faults, body parsing, auth, route.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { checkAccess, resolveAuth } from './auth.js';
import { decideFault } from './faults.js';
import { Query, jellyfinError, problem, text } from './http.js';
import type { Ctx, Reply } from './http.js';
import { matchRoute } from './router.js';
import type { MediaState, RequestLogEntry } from './types.js';

export interface PipelineOptions {
  /** The server's own base path such as `/jellyfin`; empty for none. */
  basePath: string;
  /** Whether Emby refuses paths without `/emby` (§1.8) instead of serving both like real Emby. */
  embyPrefixOnly: boolean;
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const SECRET_HEADERS = new Set(['x-emby-token', 'x-mediabrowser-token', 'cookie']);
const SECRET_QUERY = new Set(['api_key', 'apikey', 'token']);

function redactHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    const value = Array.isArray(v) ? v.join(', ') : (v ?? '');
    if (SECRET_HEADERS.has(k)) out[k] = '[redacted]';
    else if (k === 'authorization' || k === 'x-emby-authorization') {
      out[k] = value.replace(/Token\s*=\s*"[^"]*"/gi, 'Token="[redacted]"');
    } else out[k] = value;
  }
  return out;
}

function logBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const s = raw.toString('utf8');
  try {
    return JSON.parse(s);
  } catch (_err) {
    // Not JSON (form data, plain text): keep the text as sent.
    return s;
  }
}

/** Applies the base path and the `/emby` rule; null means "no such path on this server". */
function routePath(state: MediaState, opts: PipelineOptions, rawPath: string): string | null {
  let p = rawPath;
  if (opts.basePath) {
    const base = opts.basePath.toLowerCase();
    const lower = p.toLowerCase();
    if (lower !== base && !lower.startsWith(`${base}/`)) return null;
    p = p.slice(opts.basePath.length) || '/';
  }
  const hasEmby = /^\/emby(\/|$)/i.test(p);
  if (hasEmby && state.mode !== 'jellyfin12') return p.slice(5) || '/';
  if (!hasEmby && state.flavour === 'emby' && opts.embyPrefixOnly) return null;
  // Jellyfin 12 dropped the rewrite: `/emby/...` reaches no route and 404s.
  return p;
}

function notFoundReply(state: MediaState): Reply {
  return state.flavour === 'emby' ? text(404, 'Not Found') : { status: 404 };
}

const JSON_TYPES = /^(application\/json|text\/json|application\/[\w.+-]*\+json)\b/i;

type Parsed = { ok: true; value: unknown } | { ok: false; reply: Reply };

/** Decodes a body as the servers' binders would, or the reply they give when they refuse it. */
function parseBody(state: MediaState, req: IncomingMessage, raw: Buffer): Parsed {
  if (raw.length === 0) return { ok: true, value: undefined };
  const type = req.headers['content-type'] ?? '';
  const s = raw.toString('utf8');
  if (state.flavour === 'emby' && /^application\/x-www-form-urlencoded/i.test(type)) {
    return { ok: true, value: Object.fromEntries(new URLSearchParams(s)) };
  }
  if (!JSON_TYPES.test(type) && state.flavour === 'jellyfin') {
    return { ok: false, reply: problem(415) };
  }
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch (_err) {
    // Malformed JSON is the client's fault: answer 400 as the servers do.
    const reply =
      state.flavour === 'emby'
        ? text(400, 'Invalid JSON')
        : problem(400, { title: 'One or more validation errors occurred.' });
    return { ok: false, reply };
  }
}

function send(res: ServerResponse, reply: Reply): void {
  res.statusCode = reply.status;
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  res.end(reply.body);
}

export async function handleRequest(
  state: MediaState,
  opts: PipelineOptions,
  req: IncomingMessage,
  res: ServerResponse,
  raw: Buffer,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.local');
  const rawPath = decodeURIComponent(url.pathname);
  const query = new Query(url.searchParams);
  const method = (req.method ?? 'GET').toUpperCase();
  const recordQuery = query.toRecord();
  for (const k of Object.keys(recordQuery)) {
    if (SECRET_QUERY.has(k.toLowerCase())) recordQuery[k] = '[redacted]';
  }
  const entry: RequestLogEntry = {
    at: state.now(),
    method,
    path: rawPath,
    query: recordQuery,
    headers: redactHeaders(req),
    body: logBody(raw),
  };
  state.requests.push(entry);
  res.on('finish', () => {
    entry.status = res.statusCode;
  });

  const path = routePath(state, opts, rawPath);
  const fault = decideFault(state.faults, method, path ?? rawPath);
  if (fault.delayMs > 0) await sleep(fault.delayMs);
  if (fault.reset) {
    req.socket.destroy();
    return;
  }
  if (fault.status !== undefined) {
    send(
      res,
      text(
        fault.status,
        fault.body ?? (state.flavour === 'emby' ? 'Injected failure' : 'Error processing request.'),
      ),
    );
    return;
  }
  if (path === null) return send(res, notFoundReply(state));
  const match = matchRoute(state, method, path);
  if (match.kind === 'none') return send(res, notFoundReply(state));
  if (match.kind === 'method-not-allowed') {
    return send(res, state.flavour === 'emby' ? notFoundReply(state) : { status: 405 });
  }
  entry.route = match.route.path;
  const ctx: Ctx = {
    state,
    method,
    path,
    params: match.params,
    query,
    headers: req.headers,
    body: undefined,
    auth: resolveAuth(state, req.headers, query),
    remoteAddress: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
  };
  if (ctx.auth.source) entry.credential = ctx.auth.source;
  if (ctx.auth.ignoredLegacy) entry.ignoredLegacy = true;
  const denied = checkAccess(ctx, match.route.auth);
  if (denied) return send(res, denied);
  const parsed = parseBody(state, req, raw);
  if (!parsed.ok) return send(res, parsed.reply);
  ctx.body = parsed.value;
  try {
    send(res, await match.route.handler(ctx));
  } catch (err) {
    // A bug in the fake must still look like a server error to the client under test; the
    // log keeps the cause so the test author can see it.
    entry.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    send(res, state.flavour === 'emby' ? text(500, 'Internal server error') : jellyfinError(500));
  }
}
