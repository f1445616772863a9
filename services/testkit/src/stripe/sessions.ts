// Checkout Session objects and their life cycle: open → complete (paid, or unpaid while an
// async payment settles) or expired. Shapes follow the API reference for checkout.session.
import { randomBytes } from 'node:crypto';
import { invalid, StripeApiError } from './errors.js';
import type { FormObject, FormValue } from './form.js';
import type { ValidatedSession } from './validate.js';

export type CheckoutSession = Record<string, unknown> & {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  expires_at: number;
  url: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Stripe-style ids: a prefix and random base62 characters. */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  return `${prefix}${[...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

const asStrings = (value: FormValue | undefined): Record<string, string> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]))
    : {};

export function buildSession(
  params: FormObject,
  checked: ValidatedSession,
  nowSeconds: number,
  hostedBase: string,
): CheckoutSession {
  const id = stripeId('cs_test_a1', 56);
  const email = typeof params.customer_email === 'string' ? params.customer_email : null;
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: checked.amount,
    amount_total: checked.amount,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: null,
    cancel_url: (params.cancel_url as string | undefined) ?? null,
    client_reference_id: (params.client_reference_id as string | undefined) ?? null,
    client_secret: null,
    consent: null,
    consent_collection: null,
    created: nowSeconds,
    currency: checked.currency,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: null,
    customer_creation: 'if_required',
    customer_details: email
      ? { address: null, email, name: null, phone: null, tax_exempt: 'none', tax_ids: [] }
      : null,
    customer_email: email,
    discounts: [],
    expires_at: checked.expiresAt,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: (params.locale as string | undefined) ?? null,
    metadata: asStrings(params.metadata),
    mode: 'payment',
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_options: {},
    payment_method_types: checked.paymentMethodTypes,
    payment_status: 'unpaid',
    phone_number_collection: { enabled: false },
    recovered_from: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: (params.success_url as string | undefined) ?? null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `${hostedBase}/c/pay/${id}`,
  };
}

/** How the simulated customer finished the hosted page. */
export type Completion = 'paid' | 'async_pending';

export function completeSession(session: CheckoutSession, how: Completion): void {
  if (session.status !== 'open') {
    throw invalid(`This Checkout Session is no longer active (status ${session.status}).`);
  }
  session.status = 'complete';
  session.payment_status = how === 'paid' ? 'paid' : 'unpaid';
  session.payment_intent = stripeId('pi_3');
  session.url = null;
  const email = (session.customer_email as string | null) ?? 'customer@example.com';
  session.customer_details = {
    address: {
      city: null,
      country: 'US',
      line1: null,
      line2: null,
      postal_code: '94103',
      state: null,
    },
    email,
    name: 'Test Customer',
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
}

/** Settles an async payment (bank debit, voucher) after a completed-but-unpaid session. */
export function settleSession(session: CheckoutSession, outcome: 'succeeded' | 'failed'): void {
  if (session.status !== 'complete' || session.payment_status !== 'unpaid') {
    throw new Error(`session ${session.id} has no pending async payment`);
  }
  if (outcome === 'succeeded') session.payment_status = 'paid';
}

export function expireSession(session: CheckoutSession): void {
  if (session.status !== 'open') {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `Only Checkout Sessions with a status in ['open'] can be expired. ` +
        `This Checkout Session has a status of ${session.status}.`,
    );
  }
  session.status = 'expired';
  session.url = null;
}
