// The OpenID provider as `openid-client` (v6) sees it: discovery from the issuer or from an
// explicit discovery URL (Authentik publishes its document under a per-application issuer with
// a trailing slash; some providers put it elsewhere), with the issuer checked ourselves, and
// every failure sorted into "the provider is down" (503) and "its answer does not check out"
// (400). No cache: each sign-in discovers afresh (two small GETs), so a rotated signing key or
// a changed setting applies at once and nothing lives in process memory (decision 3).
import * as client from 'openid-client';
import { AppError } from '../../errors/app-error.js';
import type { SsoSettings } from './settings.js';

/** Bound of every call to the provider (seconds, openid-client's unit). */
export const PROVIDER_TIMEOUT_SECONDS = 5;
/** Bound of a whole callback's work at the provider (token, JWKS, userinfo): under 10 s. */
export const SSO_DEADLINE_MS = 8_000;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `https:`, or `http:` to this machine only (tests, the demo, a provider beside the API). */
function assertTransport(url: URL, what: string): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return;
  throw unavailable(`The ${what} must use https:// (http:// only on this machine)`, 'insecure');
}

const trimSlash = (text: string) => text.replace(/\/+$/, '');

/** Where the discovery document is: the explicit URL, or the issuer's `.well-known`. */
export function discoveryUrlOf(s: Pick<SsoSettings, 'issuer' | 'discoveryUrl'>): string {
  return s.discoveryUrl || `${trimSlash(s.issuer)}/.well-known/openid-configuration`;
}

export function unavailable(message: string, reason: string): AppError {
  return new AppError('SSO_UNAVAILABLE', message, { details: { reason } });
}

export function stateInvalid(message: string, reason: string): AppError {
  return new AppError('SSO_STATE_INVALID', message, { details: { reason } });
}

/** Walks an error and its causes looking for a network failure or a provider 5xx. */
function isOutage(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 6; depth++) {
    if (e instanceof Response) return e.status >= 500;
    const x = e as { name?: string; code?: string; message?: string; status?: number };
    if (x.name === 'TimeoutError' || x.name === 'AbortError') return true;
    if (x.name === 'TypeError' && /fetch failed|network/i.test(x.message ?? '')) return true;
    if (typeof x.code === 'string' && /^(E[A-Z]+|UND_ERR_.*)$/.test(x.code)) return true;
    if (e instanceof client.ResponseBodyError && e.status >= 500) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The API error for a failure at the provider: down or slow → 503 `SSO_UNAVAILABLE`; a refused
 * code, a provider error redirect or an ID token that fails a check → 400 `SSO_STATE_INVALID`.
 * Messages carry no token, code or secret.
 */
export function providerFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isOutage(err)) return unavailable('The identity provider did not answer', 'unreachable');
  if (err instanceof client.AuthorizationResponseError) {
    return new AppError('SSO_STATE_INVALID', 'The identity provider did not sign you in', {
      details: { reason: 'provider_error', error: err.error.slice(0, 64) },
    });
  }
  if (err instanceof client.ResponseBodyError) {
    return new AppError('SSO_STATE_INVALID', 'The identity provider refused the sign-in code', {
      details: { reason: 'code_rejected', error: err.error.slice(0, 64) },
    });
  }
  const code = (err as { code?: string }).code;
  return new AppError('SSO_STATE_INVALID', "The identity provider's answer failed a check", {
    details: { reason: 'id_token', check: typeof code === 'string' ? code : 'unknown' },
  });
}

/** Races `work` against the deadline; the loser's late answer is ignored. */
export async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(unavailable(`The identity provider did not answer within ${ms} ms`, 'timeout')),
      ms,
    );
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fetches and checks the discovery document and returns the client configuration. The issuer
 * the document names must be the configured one (a trailing slash aside), whatever URL it came
 * from, and its endpoints must be https (or loopback http).
 */
export async function discover(
  s: Pick<SsoSettings, 'issuer' | 'discoveryUrl' | 'clientId' | 'clientSecret'>,
  timeoutMs: number = PROVIDER_TIMEOUT_SECONDS * 1000,
): Promise<client.Configuration> {
  const url = new URL(discoveryUrlOf(s));
  assertTransport(new URL(s.issuer), 'issuer');
  assertTransport(url, 'discovery URL');
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw unavailable(
      `The discovery document could not be fetched (${(err as Error).name})`,
      'unreachable',
    );
  }
  if (!response.ok) {
    throw unavailable(`The discovery document answered HTTP ${response.status}`, 'discovery');
  }
  let metadata: client.ServerMetadata;
  try {
    metadata = (await response.json()) as client.ServerMetadata;
  } catch {
    throw unavailable('The discovery document is not JSON', 'discovery');
  }
  if (typeof metadata?.issuer !== 'string') {
    throw unavailable('The discovery document names no issuer', 'discovery');
  }
  if (trimSlash(metadata.issuer) !== trimSlash(s.issuer)) {
    throw unavailable(
      `The discovery document belongs to issuer ${metadata.issuer.slice(0, 200)}, not the configured one`,
      'issuer_mismatch',
    );
  }
  for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
    const value = metadata[key];
    if (typeof value !== 'string') {
      throw unavailable(`The discovery document has no ${key}`, 'discovery');
    }
    assertTransport(new URL(value), key);
  }
  const config = new client.Configuration(
    metadata,
    s.clientId,
    s.clientSecret ? { client_secret: s.clientSecret } : {},
    s.clientSecret ? client.ClientSecretBasic(s.clientSecret) : client.None(),
  );
  config.timeout = Math.max(1, Math.round(timeoutMs / 1000));
  // An ID token from the token endpoint is otherwise trusted on TLS alone (OIDC Core 3.1.3.7);
  // Usher checks its signature against the provider's JWKS every time (a kid the cached set
  // lacks makes openid-client fetch it again, which is how a rotated key is picked up).
  client.enableNonRepudiationChecks(config);
  if (new URL(metadata.issuer).protocol === 'http:') client.allowInsecureRequests(config);
  return config;
}

export { client };
