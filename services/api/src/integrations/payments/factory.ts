import {
  notConfigured,
  PerSettings,
  type IntegrationDeps,
  type SettingsReader,
} from '../common.js';
import { StripePayments } from './adapter.js';
import type { StripeSettings } from './types.js';

/** Default return pages under the public web address (30-settings.md §4.6). */
const SUCCESS_PATH = '/console/renewal?checkout=success&session_id={CHECKOUT_SESSION_ID}';
const CANCEL_PATH = '/console/renewal?checkout=cancelled';

/**
 * Reads the payment group plus `PUBLIC_WEB_URL`, resolving the return URLs. `apiBase` is the
 * env-only `STRIPE_API_BASE` (not a setting), passed by the caller.
 */
export async function readStripeSettings(
  settings: SettingsReader,
  apiBase = '',
): Promise<StripeSettings> {
  const web = (await settings.getString('PUBLIC_WEB_URL')).replace(/\/+$/, '');
  return {
    secretKey: await settings.getString('STRIPE_SECRET_KEY'),
    webhookSecret: await settings.getString('STRIPE_WEBHOOK_SECRET'),
    successUrl:
      (await settings.getString('STRIPE_SUCCESS_URL')) || (web ? `${web}${SUCCESS_PATH}` : ''),
    cancelUrl:
      (await settings.getString('STRIPE_CANCEL_URL')) || (web ? `${web}${CANCEL_PATH}` : ''),
    paymentMethods: (await settings.get('STRIPE_PAYMENT_METHODS')) ?? [],
    apiBase,
  };
}

/** What payments still need to count as configured (30-settings.md §5). */
export function missingStripeSettings(settings: StripeSettings): string[] {
  const missing = settings.secretKey ? [] : ['STRIPE_SECRET_KEY'];
  if (!settings.webhookSecret) missing.push('STRIPE_WEBHOOK_SECRET');
  if (!settings.successUrl) missing.push('STRIPE_SUCCESS_URL (or PUBLIC_WEB_URL)');
  if (!settings.cancelUrl) missing.push('STRIPE_CANCEL_URL (or PUBLIC_WEB_URL)');
  return missing;
}

export function createPayments(
  settings: StripeSettings,
  deps: IntegrationDeps & { now?: () => Date } = {},
  options: { timeoutMs?: number; maxNetworkRetries?: number } = {},
): StripePayments {
  const missing = missingStripeSettings(settings);
  if (missing.length) throw notConfigured('stripe', 'configure', missing);
  return new StripePayments(settings, deps, options);
}

/** The Stripe adapter for the current settings, rebuilt when they change. */
export class PaymentsFactory {
  private readonly adapters: PerSettings<StripeSettings, StripePayments>;

  constructor(
    private readonly settings: SettingsReader,
    /** `STRIPE_API_BASE` from the environment (captured at start like all config). */
    private readonly apiBase: string,
    deps: IntegrationDeps & { now?: () => Date } = {},
  ) {
    this.adapters = new PerSettings((s) => new StripePayments(s, deps));
  }

  async get(): Promise<StripePayments> {
    const current = await readStripeSettings(this.settings, this.apiBase);
    const missing = missingStripeSettings(current);
    if (missing.length) throw notConfigured('stripe', 'configure', missing);
    return this.adapters.get(current);
  }
}
