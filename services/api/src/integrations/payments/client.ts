import Stripe from 'stripe';

/**
 * The API version the SDK pins (no `apiVersion` is passed). The webhook endpoint in the Stripe
 * dashboard must use the same version, so the settings center shows it.
 */
export const STRIPE_API_VERSION: string = Stripe.API_VERSION;

/** The SDK's own timeout per attempt (50-integrations.md §5). */
export const STRIPE_TIMEOUT_MS = 20_000;

export interface StripeEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/**
 * `STRIPE_API_BASE=http://127.0.0.1:4242` → the SDK's `{host, port, protocol}`. Returns null for
 * an empty or unusable value, so Stripe's own address applies.
 */
export function parseStripeApiBase(apiBase: string): StripeEndpoint | null {
  if (!apiBase) return null;
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    // A malformed override is ignored here; the settings center's payment test reports it.
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/**
 * The official SDK with Usher's options. No `apiVersion`: the SDK's pinned version is used, and
 * the dashboard's webhook endpoint must match it. Against a fake (`STRIPE_API_BASE`) the SDK
 * does not retry, so tests see each failure once.
 */
export function createStripeClient(
  secretKey: string,
  apiBase: string,
  options: { timeoutMs?: number; maxNetworkRetries?: number } = {},
): Stripe {
  const endpoint = parseStripeApiBase(apiBase);
  return new Stripe(secretKey, {
    maxNetworkRetries: options.maxNetworkRetries ?? (endpoint ? 0 : 2),
    timeout: options.timeoutMs ?? STRIPE_TIMEOUT_MS,
    appInfo: { name: 'Usher' },
    ...(endpoint ?? {}),
  });
}
