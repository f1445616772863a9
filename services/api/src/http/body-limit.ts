import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './context.js';

/**
 * Hono's `bodyLimit` for requests that may carry a body. GET and HEAD pass untouched: looking at
 * `c.req.raw.body` makes @hono/node-server build a whole Web `Request` for every read, ~6 % of an
 * authenticated GET (issue 21), and no GET or HEAD route reads a body.
 */
export function limitBody(maxSize: number, onError: () => never): MiddlewareHandler<AppEnv> {
  const check = bodyLimit({ maxSize, onError });
  return (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : check(c, next));
}
