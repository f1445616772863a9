import { decodeJwt } from 'jose';
import { z } from 'zod';
import { trimBase, type IntegrationDeps } from '../common.js';
import { IntegrationError } from '../errors.js';
import { IntegrationHttp, type HttpReply } from '../http/client.js';
import type { ServarrService } from './types.js';

/** MoviePilot and servarr calls (50-integrations.md §0); torrent searches get 60 s. */
export const AUTOMATION_TIMEOUT_MS = 15_000;
export const SEARCH_TIMEOUT_MS = 60_000;
/** A token is dropped this long before its `exp`, so no call races its expiry. */
const TOKEN_MARGIN_MS = 3_600_000;

const loginReply = z.object({ access_token: z.string().min(1) });

interface CachedToken {
  token: string;
  /** Epoch ms after which the token is not reused; absent = until refused. */
  until?: number;
}

/**
 * MoviePilot access tokens in memory, keyed by URL and user, kept until `exp − 1 h`. Shared by
 * the adapters one factory builds, so a settings edit elsewhere does not force a new login.
 */
export class MoviePilotTokens {
  private readonly tokens = new Map<string, CachedToken>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The cache key of an account on a server. */
  static keyFor(url: string, username: string): string {
    return `${trimBase(url)}\n${username}`;
  }

  get(key: string): string | undefined {
    const cached = this.tokens.get(key);
    if (!cached) return undefined;
    if (cached.until !== undefined && this.now() >= cached.until) {
      this.tokens.delete(key);
      return undefined;
    }
    return cached.token;
  }

  set(key: string, token: string): void {
    let exp: number | undefined;
    try {
      exp = decodeJwt(token).exp;
    } catch {
      // An opaque (non-JWT) token has no readable lifetime: keep it until MoviePilot refuses it.
    }
    this.tokens.set(key, {
      token,
      until: exp === undefined ? undefined : exp * 1000 - TOKEN_MARGIN_MS,
    });
  }

  drop(key: string): void {
    this.tokens.delete(key);
  }
}

export interface MoviePilotCall {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  timeoutMs?: number;
}

/**
 * MoviePilot v2's own API: a form login for a JWT, the token cache, and one fresh login and
 * retry when a call is refused with 401/403 (expired or revoked token).
 */
export class MoviePilotClient {
  private readonly http: IntegrationHttp;
  private readonly base: string;
  private readonly key: string;

  constructor(
    private readonly settings: { url: string; username: string; password: string },
    deps: IntegrationDeps = {},
    private readonly tokens = new MoviePilotTokens(),
    private readonly timeoutMs = AUTOMATION_TIMEOUT_MS,
  ) {
    this.http = new IntegrationHttp('automation', deps.metrics, deps.logger, [settings.password]);
    this.base = trimBase(settings.url);
    this.key = MoviePilotTokens.keyFor(settings.url, settings.username);
  }

  get username(): string {
    return this.settings.username;
  }

  /** Logs in (form body, not JSON) and caches the token. A refusal is `auth`. */
  async login(): Promise<string> {
    const reply = await this.http.request(`${this.base}/api/v1/login/access-token`, {
      operation: 'login',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams({
        username: this.settings.username,
        password: this.settings.password,
      }).toString(),
      timeoutMs: this.timeoutMs,
      passStatuses: [400, 401, 403],
    });
    if (reply.status !== 200) {
      throw new IntegrationError(
        'automation',
        'login',
        'auth',
        'MoviePilot refused the username or password (accounts with 2FA are not supported)',
        reply.status,
      );
    }
    const { access_token: token } = this.http.parse(reply, 'login', loginReply);
    this.tokens.set(this.key, token);
    return token;
  }

  /** An authenticated call; the reply is parsed with `schema`. */
  async call<T>(
    operation: string,
    path: string,
    options: MoviePilotCall,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const url = new URL(`${this.base}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const send = (token: string) =>
      this.http.request(url.toString(), {
        operation,
        method: options.method ?? 'GET',
        headers: { authorization: `Bearer ${token}` },
        json: options.json,
        timeoutMs: options.timeoutMs ?? this.timeoutMs,
        passStatuses: [401, 403],
      });
    let reply: HttpReply = await send(this.tokens.get(this.key) ?? (await this.login()));
    if (reply.status === 401 || reply.status === 403) {
      this.tokens.drop(this.key);
      reply = await send(await this.login());
      if (reply.status === 401 || reply.status === 403) {
        throw new IntegrationError(
          'automation',
          operation,
          'auth',
          'MoviePilot refused a fresh login token; check the account',
          reply.status,
        );
      }
    }
    return this.http.parse(reply, operation, schema);
  }
}

/** A Radarr/Sonarr-compatible API with `X-Api-Key`. */
export class ServarrClient {
  private readonly http: IntegrationHttp;
  private readonly base: string;

  constructor(
    private readonly service: ServarrService,
    deps: IntegrationDeps = {},
    private readonly timeoutMs = AUTOMATION_TIMEOUT_MS,
  ) {
    this.http = new IntegrationHttp('automation', deps.metrics, deps.logger, [service.apiKey]);
    this.base = trimBase(service.url);
  }

  get url(): string {
    return this.base;
  }

  async get<T>(operation: string, path: string, schema: z.ZodType<T>): Promise<T> {
    const reply = await this.http.request(`${this.base}/api/v3/${path}`, {
      operation,
      headers: { 'x-api-key': this.service.apiKey },
      timeoutMs: this.timeoutMs,
      passStatuses: [401, 403],
    });
    return this.http.parse(this.authorised(reply, operation), operation, schema);
  }

  /** POSTs JSON; a 400 (validation entries) comes back for the caller to read. */
  async post(operation: string, path: string, json: unknown): Promise<HttpReply> {
    const reply = await this.http.request(`${this.base}/api/v3/${path}`, {
      operation,
      method: 'POST',
      headers: { 'x-api-key': this.service.apiKey },
      json,
      timeoutMs: this.timeoutMs,
      passStatuses: [400, 401, 403],
    });
    return this.authorised(reply, operation);
  }

  private authorised(reply: HttpReply, operation: string): HttpReply {
    if (reply.status !== 401 && reply.status !== 403) return reply;
    throw new IntegrationError(
      'automation',
      operation,
      'auth',
      `${this.base} refused the API key`,
      reply.status,
    );
  }

  parse<T>(reply: HttpReply, operation: string, schema: z.ZodType<T>): T {
    return this.http.parse(reply, operation, schema);
  }
}
