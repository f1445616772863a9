// Reply builders and request helpers shared by the route modules. Error bodies copy what each
// server sends: Emby answers plain text; Jellyfin answers `text/plain` "Error processing request."
// from its exception middleware, RFC 7807 problem+json from controller results, and empty 401s.
import { randomBytes } from 'node:crypto';

import type { AuthInfo, MediaServerMode, MediaState } from './types.js';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Ctx {
  state: MediaState;
  method: string;
  /** Path with the base path and any accepted `/emby` prefix removed. */
  path: string;
  params: Record<string, string>;
  query: Query;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  auth: AuthInfo;
  remoteAddress: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, value: unknown): Reply {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value) };
}

export function ok(value: unknown): Reply {
  return json(200, value);
}

export function noContent(): Reply {
  return { status: 204 };
}

export function empty(status: number): Reply {
  return { status };
}

export function text(status: number, message: string): Reply {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: message };
}

const PROBLEM_TYPES: Record<number, string> = {
  400: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
  403: 'https://tools.ietf.org/html/rfc9110#section-15.5.4',
  404: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
  415: 'https://tools.ietf.org/html/rfc9110#section-15.5.16',
};
const PROBLEM_TITLES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  415: 'Unsupported Media Type',
};

/** ASP.NET Core's ProblemDetails, as Jellyfin's controllers return for NotFound()/BadRequest(). */
export function problem(status: number, extra: Record<string, unknown> = {}): Reply {
  const body = {
    type: PROBLEM_TYPES[status] ?? 'about:blank',
    title: PROBLEM_TITLES[status] ?? 'Error',
    status,
    ...extra,
    traceId: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`,
  };
  return {
    status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8' },
    body: JSON.stringify(body),
  };
}

/** Model-validation failure (missing `[Required]` members, unparsable values). */
export function validationProblem(errors: Record<string, string[]>): Reply {
  return problem(400, { title: 'One or more validation errors occurred.', errors });
}

/** Jellyfin's exception middleware hides the message outside Development. */
export function jellyfinError(status: number): Reply {
  return text(status, 'Error processing request.');
}

/** "Not found" as each server phrases it for a missing resource. */
export function notFound(state: MediaState, what: string): Reply {
  return state.flavour === 'emby' ? text(404, `${what} not found`) : problem(404);
}

/** A business "no" thrown as ArgumentException: Emby shows the message, Jellyfin hides it. */
export function badRequest(state: MediaState, message: string): Reply {
  return state.flavour === 'emby' ? text(400, message) : jellyfinError(400);
}

/** Case-insensitive query access: ServiceStack (Emby) and ASP.NET (Jellyfin) both bind that way. */
export class Query {
  private readonly entries: [string, string][];

  constructor(params: URLSearchParams) {
    this.entries = [...params.entries()];
  }

  get(name: string): string | undefined {
    const lower = name.toLowerCase();
    return this.entries.find(([k]) => k.toLowerCase() === lower)?.[1];
  }

  /** Comma lists and repeated keys both work (`Ids=a,b` and `ids=a&ids=b`). */
  list(name: string): string[] | undefined {
    const lower = name.toLowerCase();
    const values = this.entries.filter(([k]) => k.toLowerCase() === lower).map(([, v]) => v);
    if (values.length === 0) return undefined;
    return values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }

  bool(name: string): boolean | undefined {
    const v = this.get(name)?.toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
    return undefined;
  }

  int(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined || v.trim() === '') return undefined;
    const n = Number(v);
    return Number.isInteger(n) ? n : undefined;
  }

  toRecord(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of this.entries) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    return out;
  }
}

export function header(ctx: Pick<Ctx, 'headers'>, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** The JSON body as an object, or undefined when absent or not an object. */
export function bodyObject(ctx: Ctx): Record<string, unknown> | undefined {
  const b = ctx.body;
  return b !== null && typeof b === 'object' && !Array.isArray(b)
    ? (b as Record<string, unknown>)
    : undefined;
}

/** Jellyfin renders dates with 7 fractional digits and a `Z`; Emby does the same in UTC. */
export function isoDate(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, (_m, ms: string) => `.${ms}0000Z`);
}

/** A lookup result: the thing found, or the reply the server gives when it is not. */
export type Found<T> = { found: T } | { reply: Reply };

/** Who may call a route: anyone, any valid token, or an administrator (the API key counts). */
export type AuthLevel = 'anon' | 'user' | 'admin';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'HEAD';
  /** Template with `{name}` segments, matched case-insensitively like both servers do. */
  path: string;
  auth: AuthLevel;
  /** Restricts the route to some modes; every mode when absent. */
  modes?: readonly MediaServerMode[];
  /** Finer switch than `modes`, e.g. routes that exist only from some version on. */
  when?: (state: MediaState) => boolean;
  handler: (ctx: Ctx) => Reply | Promise<Reply>;
}
