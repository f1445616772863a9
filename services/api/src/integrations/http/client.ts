import type { UpstreamSystem } from '@usher/contracts';
import { retryingGet } from '@usher/contracts/retry';
import type { Logger } from 'pino';
import type { IntegrationMetrics, Outcome } from '../../metrics/integrations.js';
import { IntegrationError, redact } from '../errors.js';

export interface RequestOptions {
  operation: string;
  method?: string;
  headers?: Record<string, string>;
  /** JSON body (sets content-type) — or pass `rawBody` for forms. */
  json?: unknown;
  rawBody?: string;
  timeoutMs: number;
  /** Statuses handed back to the caller instead of thrown (e.g. 404 → null). */
  passStatuses?: readonly number[];
  /** Read a successful body as bytes (`HttpReply.bytes`, `text` stays empty): images. */
  binary?: boolean;
  /** `accept` header; JSON by default. */
  accept?: string;
}

export interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
  /** The body as bytes, when the request asked for `binary`. */
  bytes?: Buffer;
}

const RETRYABLE = new Set([502, 503, 504]);

/**
 * `fetch` with the rules every adapter shares: a timeout per call, one retry for GETs after
 * 300 ms on a network error or 502/503/504 (writes are never retried), a metric per call, and
 * errors that carry no secret.
 */
/** Certificate codes Node's TLS layer reports, with what an operator should read. */
const TLS_CERT_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'uses a self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'uses a certificate from an untrusted (self-signed) authority',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'uses a certificate that cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'uses a certificate whose issuer is not trusted',
  CERT_HAS_EXPIRED: 'uses an expired certificate',
  CERT_NOT_YET_VALID: 'uses a certificate that is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'uses a certificate issued for another host name',
};

/**
 * A TLS failure behind fetch's "fetch failed", worded for the settings page (30-settings.md §3:
 * timeout, 401, wrong URL, TLS each get their own reason), or undefined for other failures.
 */
export function tlsProblem(err: unknown): string | undefined {
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (typeof code !== 'string') return undefined;
  const problem = TLS_CERT_PROBLEMS[code];
  if (problem)
    return `${problem} (TLS ${code}); install a trusted certificate or use the right address`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO') {
    return `did not answer TLS (${code}): is the address http:// rather than https://?`;
  }
  return undefined;
}

export class IntegrationHttp {
  constructor(
    readonly system: UpstreamSystem,
    private readonly metrics: IntegrationMetrics | undefined,
    private readonly logger: Logger | undefined,
    /** Values to scrub from anything logged or thrown (API keys, tokens). */
    private readonly secrets: readonly string[] = [],
  ) {}

  async request(url: string, options: RequestOptions): Promise<HttpReply> {
    const method = options.method ?? 'GET';
    const result = await retryingGet(method, () => this.once(url, method, options), {
      shouldRetry: (outcome) =>
        outcome instanceof IntegrationError &&
        (outcome.kind === 'network' ||
          (outcome.status !== undefined && RETRYABLE.has(outcome.status))),
      delayMs: 300,
    });
    if (result instanceof IntegrationError) throw result;
    return result;
  }

  private async once(
    url: string,
    method: string,
    options: RequestOptions,
  ): Promise<HttpReply | IntegrationError> {
    const started = performance.now();
    const labels = { system: this.system, operation: options.operation };
    const headers: Record<string, string> = {
      accept: options.accept ?? 'application/json',
      ...options.headers,
    };
    let body: string | undefined = options.rawBody;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const record = (outcome: Outcome) => {
      this.metrics?.requests.inc({ ...labels, outcome });
      this.metrics?.duration.observe(labels, (performance.now() - started) / 1000);
    };
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'manual',
      });
    } catch (err) {
      // fetch reports timeouts and socket failures only by rejecting.
      const timeout = (err as Error).name === 'TimeoutError';
      record(timeout ? 'timeout' : 'network');
      const tls = timeout ? undefined : tlsProblem(err);
      const what = timeout
        ? `did not answer within ${options.timeoutMs / 1000} s`
        : (tls ?? 'is unreachable');
      this.logger?.warn(
        { system: this.system, operation: options.operation, url: redact(url, this.secrets) },
        `${this.system} ${what}`,
      );
      return new IntegrationError(
        this.system,
        options.operation,
        timeout ? 'timeout' : tls ? 'tls' : 'network',
        `The ${label(this.system)} ${what}`,
      );
    }
    if (res.ok && options.binary) {
      const bytes = await res
        .arrayBuffer()
        .then((b) => Buffer.from(b))
        .catch(() => undefined);
      if (bytes === undefined) {
        record('network');
        return new IntegrationError(
          this.system,
          options.operation,
          'network',
          `The ${label(this.system)} broke off its reply`,
        );
      }
      record('ok');
      return { status: res.status, headers: res.headers, text: '', bytes };
    }
    const text = await res.text().catch(() => '');
    if (res.ok || options.passStatuses?.includes(res.status)) {
      record(res.ok ? 'ok' : 'http_4xx');
      return { status: res.status, headers: res.headers, text };
    }
    const server = res.status >= 500;
    record(server ? 'http_5xx' : 'http_4xx');
    const upstream = redact(text, this.secrets);
    this.logger?.warn(
      { system: this.system, operation: options.operation, status: res.status, body: upstream },
      `${this.system} answered ${res.status}`,
    );
    const kind =
      res.status === 401 || res.status === 403
        ? 'auth'
        : res.status === 404
          ? 'not_found'
          : server
            ? 'http_5xx'
            : 'http_4xx';
    return new IntegrationError(
      this.system,
      options.operation,
      kind,
      `The ${label(this.system)} answered HTTP ${res.status}`,
      res.status,
      upstream,
    );
  }

  /** Parses a JSON reply with a zod-like schema; a mismatch is `invalid_response`. */
  parse<T>(
    reply: HttpReply,
    operation: string,
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  ): T {
    let value: unknown;
    try {
      value = reply.text === '' ? undefined : JSON.parse(reply.text);
    } catch {
      // A body that is not JSON where JSON is promised is an unusable reply, not a crash.
      value = Symbol('unparsable');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      this.metrics?.requests.inc({ system: this.system, operation, outcome: 'invalid_response' });
      throw new IntegrationError(
        this.system,
        operation,
        'invalid_response',
        `The ${label(this.system)} sent a reply Usher cannot read`,
      );
    }
    return parsed.data;
  }
}

const LABELS: Record<UpstreamSystem, string> = {
  media_server: 'media server',
  webhook: 'media-server webhook',
  tmdb: 'metadata provider (TMDB)',
  automation: 'automation tool',
  smtp: 'mail server',
  stripe: 'payment provider (Stripe)',
  playback_reporting: 'Playback Reporting plugin',
  bot: 'bot',
};

export const label = (system: UpstreamSystem) => LABELS[system];
