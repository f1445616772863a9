import { StripePayments } from '../../../integrations/payments/adapter.js';
import { parseStripeApiBase, STRIPE_API_VERSION } from '../../../integrations/payments/client.js';
import { readStripeSettings } from '../../../integrations/payments/factory.js';
import { fail, fromProbe, ok, runCheck, warn, type CheckResult, type GroupTest } from './check.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Resolvable and absolute; `http://` outside localhost is a warning (30-settings.md §6). */
function checkReturnUrls(successUrl: string, cancelUrl: string): CheckResult {
  const missing = [
    ...(successUrl ? [] : ['STRIPE_SUCCESS_URL (or PUBLIC_WEB_URL)']),
    ...(cancelUrl ? [] : ['STRIPE_CANCEL_URL (or PUBLIC_WEB_URL)']),
  ];
  if (missing.length) return fail(`No return URL: set ${missing.join(', ')}`);
  const insecure: string[] = [];
  for (const [name, value] of [
    ['success', successUrl],
    ['cancel', cancelUrl],
  ] as const) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      // URL parsing reports a relative or malformed address only by throwing.
      return fail(`The ${name} URL is not an absolute address: ${value}`);
    }
    if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) insecure.push(name);
  }
  const urls = `success ${successUrl}; cancel ${cancelUrl}`;
  return insecure.length
    ? warn(`The ${insecure.join(' and ')} URL uses http:// outside localhost (${urls})`)
    : ok(urls);
}

/**
 * `stripe`: list one checkout session with the secret key, reporting test or live mode;
 * `webhook_secret` and `return_urls`: presence and format (30-settings.md §6).
 */
export const testPayment: GroupTest = async (ctx) => {
  const apiBase = ctx.env.STRIPE_API_BASE ?? '';
  const settings = await readStripeSettings(ctx.settings, apiBase);
  const stripe = runCheck('stripe', ctx, async () => {
    if (!settings.secretKey) return fail('STRIPE_SECRET_KEY is not set', 'not_configured');
    if (apiBase && !parseStripeApiBase(apiBase)) {
      return fail(`STRIPE_API_BASE is not an http(s) address: ${apiBase.slice(0, 100)}`);
    }
    // No SDK retries here: the admin is waiting, and a failure is the answer.
    const payments = new StripePayments(settings, ctx.deps, {
      timeoutMs: ctx.timeoutMs,
      maxNetworkRetries: 0,
    });
    const result = fromProbe(await payments.probe());
    const via = apiBase ? ` via STRIPE_API_BASE ${apiBase}` : '';
    return { ...result, message: `${result.message}${via}` };
  });
  const webhook = runCheck('webhook_secret', ctx, async () => {
    if (!settings.webhookSecret) {
      return fail(
        'STRIPE_WEBHOOK_SECRET is not set: Stripe webhooks are refused',
        'not_configured',
      );
    }
    if (!/^whsec_[A-Za-z0-9]+$/.test(settings.webhookSecret)) {
      return fail('STRIPE_WEBHOOK_SECRET must start with whsec_');
    }
    return ok(
      `Signing secret set; the Stripe webhook endpoint must use API version ${STRIPE_API_VERSION}`,
    );
  });
  const urls = runCheck('return_urls', ctx, async () =>
    checkReturnUrls(settings.successUrl, settings.cancelUrl),
  );
  return Promise.all([stripe, webhook, urls]);
};
