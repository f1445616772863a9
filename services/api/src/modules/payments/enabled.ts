import type { Database } from '../../db/client.js';
import type { SettingsReader } from '../../integrations/common.js';
import { missingStripeSettings, readStripeSettings } from '../../integrations/payments/factory.js';
import { hasActivePlan } from './queries.js';

const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9]+$/;

/**
 * Whether Stripe is configured well enough to take a payment: both keys present and well
 * formed (an env fallback skips the settings center's validation) and both return URLs
 * resolvable (30-settings.md §4.6, §5).
 */
export async function stripeReady(settings: SettingsReader): Promise<boolean> {
  const current = await readStripeSettings(settings);
  return (
    missingStripeSettings(current).length === 0 &&
    SECRET_KEY.test(current.secretKey) &&
    WEBHOOK_SECRET.test(current.webhookSecret)
  );
}

/**
 * `paymentsEnabled` of `GET /public/site` and `GET /plans`: payments can really be taken, i.e.
 * Stripe is ready and at least one plan is on sale.
 */
export async function paymentsEnabled(db: Database, settings: SettingsReader): Promise<boolean> {
  return (await stripeReady(settings)) && (await hasActivePlan(db));
}
