// The wire to Emby or Jellyfin: base URL and prefix (§1.2), the authentication headers of §1.3,
// and request helpers over the shared IntegrationHttp (timeouts, GET retry, metrics, redaction).
import type { UpstreamSystem } from '@usher/contracts';
import { IntegrationError } from '../errors.js';
import { trimBase, type IntegrationDeps } from '../common.js';
import { IntegrationHttp, type HttpReply } from '../http/client.js';
import { VERSION } from '../../version.js';
import type { MediaServerKind } from './port.js';

export interface MediaServerConfig {
  kind: MediaServerKind;
  url: string;
  apiKey: string;
  timeoutSeconds: number;
  /** Zone of the Playback Reporting plugin's local times; UTC when absent. */
  timeZone?: string;
}

export type MediaServerDeps = IntegrationDeps;

/** Who a call runs as. */
export type CallAuth =
  | { as: 'admin' }
  | { as: 'anonymous' }
  | { as: 'login'; deviceId: string }
  | { as: 'user'; token: string };

type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface Call {
  /** Metric and log label. */
  op: string;
  method?: 'GET' | 'POST' | 'DELETE';
  /** Path below the API root, ids already filled in and encoded. */
  path: string;
  /** Names in Emby's PascalCase; Jellyfin gets them camelCased, as its OpenAPI spells them. */
  query?: Record<string, QueryValue>;
  json?: unknown;
  auth?: CallAuth;
  /** Statuses handed back instead of thrown. */
  pass?: readonly number[];
  /** Library scan pages and playback queries get three times the normal timeout. */
  slow?: boolean;
  system?: UpstreamSystem;
  /** Skip Emby's `/emby` prefix (used only to recognise the other product during the probe). */
  unprefixed?: boolean;
  /** Read the reply as bytes (images). */
  binary?: boolean;
}

interface ZodLike<T> {
  safeParse(v: unknown): { success: true; data: T } | { success: false };
}

/** A header value in quotes; values are URL-encoded as both servers decode them (§1.3). */
const quoted = (v: string): string => `"${encodeURIComponent(v)}"`;

export class MediaServerClient {
  readonly kind: MediaServerKind;
  /** The configured URL without a trailing slash. */
  readonly root: string;
  /** `root` plus Emby's `/emby` prefix when the URL does not end with it already. */
  readonly base: string;
  private readonly timeoutMs: number;
  private readonly http: Record<'media_server' | 'playback_reporting', IntegrationHttp>;

  constructor(
    private readonly config: MediaServerConfig,
    deps: MediaServerDeps,
  ) {
    this.kind = config.kind;
    const trimmed = trimBase(config.url.trim());
    // An Emby URL typed with its `/emby` already gets it only once.
    const typedPrefix = config.kind === 'emby' && /\/emby$/i.test(trimmed);
    this.root = typedPrefix ? trimmed.slice(0, -'/emby'.length) : trimmed;
    this.base = config.kind === 'emby' ? `${this.root}/emby` : this.root;
    this.timeoutMs = config.timeoutSeconds * 1000;
    const secrets = [config.apiKey];
    this.http = {
      media_server: new IntegrationHttp('media_server', deps.metrics, deps.logger, secrets),
      playback_reporting: new IntegrationHttp(
        'playback_reporting',
        deps.metrics,
        deps.logger,
        secrets,
      ),
    };
  }

  /** Sends one call; failures arrive as IntegrationError with the §1.3 wording for a bad key. */
  async send(call: Call): Promise<HttpReply> {
    const system = systemOf(call);
    const url = `${call.unprefixed ? this.root : this.base}${call.path}${this.queryString(call)}`;
    const auth = call.auth ?? { as: 'admin' };
    try {
      return await this.http[system].request(url, {
        operation: call.op,
        method: call.method ?? 'GET',
        headers: this.headers(auth),
        ...(call.json === undefined ? {} : { json: call.json }),
        timeoutMs: call.slow ? this.timeoutMs * 3 : this.timeoutMs,
        ...(call.pass ? { passStatuses: call.pass } : {}),
        ...(call.binary ? { binary: true, accept: 'image/*' } : {}),
      });
    } catch (err) {
      // Only a refused API key gets reworded; everything else already says what failed.
      if (!(err instanceof IntegrationError) || auth.as !== 'admin' || err.status !== 401) {
        throw err;
      }
      throw new IntegrationError(
        err.system,
        err.operation,
        'auth',
        this.keyRefusedMessage(),
        err.status,
        err.upstreamMessage,
      );
    }
  }

  /** Sends a call and parses its JSON reply with a schema that keeps only the fields used. */
  async json<T>(call: Call, schema: ZodLike<T>): Promise<T> {
    const reply = await this.send(call);
    return this.parse(reply, call, schema);
  }

  parse<T>(reply: HttpReply, call: Pick<Call, 'op' | 'system'>, schema: ZodLike<T>): T {
    return this.http[systemOf(call)].parse(reply, call.op, schema);
  }

  private keyRefusedMessage(): string {
    return this.kind === 'jellyfin'
      ? 'Jellyfin refused the API key (check the key; Jellyfin 12 ignores Emby-style headers)'
      : 'Emby refused the API key (check MEDIA_SERVER_API_KEY)';
  }

  /** §1.3: Jellyfin gets only the MediaBrowser form; Emby gets both of its forms. */
  headers(auth: CallAuth): Record<string, string> {
    switch (auth.as) {
      case 'anonymous':
        return {};
      case 'admin':
        return this.tokenHeaders(this.config.apiKey, this.kind === 'emby');
      case 'user':
        // Ending a user token: Emby reads X-Emby-Token, Jellyfin only the MediaBrowser form.
        return this.kind === 'emby'
          ? { 'x-emby-token': auth.token }
          : { authorization: `MediaBrowser Token=${quoted(auth.token)}` };
      case 'login': {
        // No token here: a key in this header makes Jellyfin replace Client and DeviceId.
        const list = [
          `Client=${quoted('Usher')}`,
          `Device=${quoted('Usher')}`,
          `DeviceId=${quoted(auth.deviceId)}`,
          `Version=${quoted(VERSION)}`,
        ].join(', ');
        if (this.kind === 'jellyfin') return { authorization: `MediaBrowser ${list}` };
        return {
          'x-emby-authorization': `Emby UserId="", ${list}`,
          authorization: `MediaBrowser ${list}`,
        };
      }
    }
  }

  private tokenHeaders(token: string, withEmbyToken: boolean): Record<string, string> {
    const mb = { authorization: `MediaBrowser Token=${quoted(token)}` };
    return withEmbyToken ? { 'x-emby-token': token, ...mb } : mb;
  }

  private queryString(call: Call): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value === undefined) continue;
      const key = this.kind === 'jellyfin' ? name.charAt(0).toLowerCase() + name.slice(1) : name;
      params.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    const text = params.toString();
    return text ? `?${text}` : '';
  }
}

const systemOf = (call: Pick<Call, 'system'>) =>
  call.system === 'playback_reporting' ? 'playback_reporting' : 'media_server';

/** The 404 of a write to an unknown user, as `not_found` for the caller to handle. */
export function noSuchUser(operation: string): IntegrationError {
  return new IntegrationError(
    'media_server',
    operation,
    'not_found',
    'The media server has no such user',
    404,
  );
}

/** A path segment for an id; ids come from callers, so they are always encoded. */
export function seg(id: string): string {
  return encodeURIComponent(id);
}
