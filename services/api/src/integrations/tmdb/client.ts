import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import type { IntegrationDeps } from '../common.js';
import { trimBase } from '../common.js';
import { IntegrationError, redact } from '../errors.js';
import { IntegrationHttp, type HttpReply } from '../http/client.js';
import type { TmdbSettings } from './types.js';

/** TMDB's per-call timeout (50-integrations.md §0). */
export const TMDB_TIMEOUT_MS = 8_000;
/** Wait after a 429 without `Retry-After`. */
const DEFAULT_RETRY_AFTER_MS = 1_000;
/** A `Retry-After` longer than this is not worth holding a request for: fail instead. */
const MAX_RETRY_AFTER_MS = 10_000;

/** A v4 read token is a JWT: three base64url parts, the header starting `eyJ`. */
export const isReadToken = (key: string) =>
  /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(key);

const errorBody = z.object({ status_code: z.number().optional() });

type Query = Record<string, string | number | boolean | undefined>;

/**
 * The TMDB v3 wire: authentication by key shape, `language` on every call, TMDB's error codes
 * (401/7 → auth, 404/34 → not_found) and one wait-and-retry after a 429.
 */
export class TmdbClient {
  private readonly http: IntegrationHttp;
  private readonly base: string;

  constructor(
    private readonly settings: TmdbSettings,
    deps: IntegrationDeps = {},
    private readonly timeoutMs = TMDB_TIMEOUT_MS,
  ) {
    this.http = new IntegrationHttp('tmdb', deps.metrics, deps.logger, [settings.apiKey]);
    this.base = trimBase(settings.apiBase);
  }

  /** GETs `path` and parses the reply with `schema`. */
  async get<T>(operation: string, path: string, query: Query, schema: z.ZodType<T>): Promise<T> {
    const reply = await this.send(operation, path, query);
    return this.http.parse(reply, operation, schema);
  }

  private url(path: string, query: Query): string {
    const url = new URL(`${this.base}${path}`);
    const params: Query = { ...query, language: this.settings.language };
    if (!isReadToken(this.settings.apiKey)) params.api_key = this.settings.apiKey;
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private async send(operation: string, path: string, query: Query): Promise<HttpReply> {
    const headers: Record<string, string> = {};
    if (isReadToken(this.settings.apiKey)) {
      headers.authorization = `Bearer ${this.settings.apiKey}`;
    }
    const url = this.url(path, query);
    const request = () =>
      this.http.request(url, {
        operation,
        headers,
        timeoutMs: this.timeoutMs,
        passStatuses: [401, 404, 429],
      });
    let reply = await request();
    if (reply.status === 429) {
      const wait = retryAfterMs(reply.headers.get('retry-after'));
      if (wait > MAX_RETRY_AFTER_MS) throw this.rateLimited(operation);
      await delay(wait);
      reply = await request();
      if (reply.status === 429) throw this.rateLimited(operation);
    }
    if (reply.status === 401) {
      throw new IntegrationError(
        'tmdb',
        operation,
        'auth',
        'TMDB rejected the API key',
        401,
        this.upstream(reply),
      );
    }
    if (reply.status === 404) {
      throw new IntegrationError(
        'tmdb',
        operation,
        'not_found',
        'TMDB has no such title',
        404,
        this.upstream(reply),
      );
    }
    return reply;
  }

  private rateLimited(operation: string): IntegrationError {
    return new IntegrationError(
      'tmdb',
      operation,
      'http_4xx',
      'TMDB is rate-limiting Usher; try again in a moment',
      429,
    );
  }

  /** TMDB's `status_code` and message, scrubbed of the key, for logs and error details. */
  private upstream(reply: HttpReply): string {
    let code: number | undefined;
    try {
      code = errorBody.parse(JSON.parse(reply.text)).status_code;
    } catch {
      // A non-JSON error body still gets reported, just without TMDB's code.
    }
    const text = redact(reply.text, [this.settings.apiKey]);
    return code === undefined ? text : `status_code ${code}: ${text}`;
  }
}

/** `Retry-After` in seconds (TMDB never sends an HTTP date); 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null): number {
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS;
}
