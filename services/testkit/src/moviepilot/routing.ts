// A small FastAPI-like router: exact paths, 307 for a missing trailing slash (Starlette's
// redirect_slashes), `{"detail": …}` errors and the 422 body pydantic v2 produces.
import type http from 'node:http';
import type { ParsedBody } from '../fake-server/body.js';
import type { MoviePilotState } from './state.js';

export interface MpRequest {
  method: string;
  url: URL;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: ParsedBody;
  /** The JWT's username once the `jwt` auth check passed. */
  username?: string;
}

export interface MpReply {
  status: number;
  body?: unknown;
  /** Plain-text body (FastAPI's unhandled-exception 500 is "Internal Server Error"). */
  text?: string;
  headers?: Record<string, string>;
}

export type Auth = 'jwt' | 'apitoken' | 'apikey' | 'none';

export interface Route {
  method: string;
  pattern: RegExp;
  auth: Auth;
  /** Radarr/Sonarr (ASP.NET) match paths case-insensitively; FastAPI does not. */
  caseInsensitive?: boolean;
  handle(req: MpRequest, match: RegExpExecArray, state: MoviePilotState): MpReply;
}

export const detail = (status: number, message: unknown, headers?: Record<string, string>) => ({
  status,
  body: { detail: message },
  headers,
});

export const INTERNAL_ERROR: MpReply = { status: 500, text: 'Internal Server Error' };

/** Pydantic v2 "Field required" errors for missing body fields. */
export function missingFields(fields: string[], input: unknown): MpReply {
  return detail(
    422,
    fields.map((field) => ({
      type: 'missing',
      loc: ['body', field],
      msg: 'Field required',
      input: input ?? null,
    })),
  );
}

/** FastAPI's reply when the body is not the JSON object the endpoint declares. */
export function invalidJsonBody(input: unknown): MpReply {
  return detail(422, [
    {
      type: 'model_attributes_type',
      loc: ['body'],
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: input ?? null,
    },
  ]);
}

export function jsonObject(req: MpRequest): Record<string, unknown> | null {
  const value = req.body.value;
  if (req.body.kind !== 'json' || typeof value !== 'object' || value === null) return null;
  return Array.isArray(value) ? null : (value as Record<string, unknown>);
}

export function findRoute(routes: Route[], method: string, path: string) {
  let pathMatched = false;
  for (const route of routes) {
    const match = route.caseInsensitive
      ? new RegExp(route.pattern.source, 'i').exec(path)
      : route.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (route.method === method) return { route, match, pathMatched };
  }
  return { pathMatched };
}
