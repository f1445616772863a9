/** The payment group (30-settings.md §4.6) with the return URLs already resolved. */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** `STRIPE_SUCCESS_URL`, else `PUBLIC_WEB_URL` + the renewal page; empty when neither is set. */
  successUrl: string;
  cancelUrl: string;
  /** Empty = whatever the Stripe dashboard enables. */
  paymentMethods: string[];
  /**
   * `STRIPE_API_BASE` (env only, for tests and the demo): the SDK is pointed at this address
   * instead of Stripe's. Empty = Stripe.
   */
  apiBase: string;
}

/** What a checkout needs from the payment, its plan and its user. */
export interface CheckoutInput {
  paymentId: string;
  userId: string;
  planId: string;
  days: number;
  /** In the currency's minor unit (cents). */
  amount: number;
  /** ISO 4217, lower case. */
  currency: string;
  productName: string;
  productDescription?: string | null;
  customerEmail?: string | null;
  /** A Stripe Checkout locale (`auto`, `en`, `zh`, …). */
  locale?: string;
  /**
   * The session's end; default now + 31 min. A caller that may retry the same payment passes
   * the stored value, because a replay under the same idempotency key must repeat every
   * parameter (Stripe answers `idempotency_error` otherwise).
   */
  expiresAt?: Date;
}

export type CheckoutStatus = 'open' | 'complete' | 'expired';

/** A created session: where to send the customer and when it stops accepting payment. */
export interface CheckoutSessionCreated {
  id: string;
  url: string | null;
  status: CheckoutStatus;
  expiresAt: Date;
}

/** A session as read back (`sessions.retrieve`). */
export interface CheckoutSessionState {
  id: string;
  status: CheckoutStatus;
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  paymentIntent: string | null;
  amountTotal: number | null;
  currency: string | null;
  metadata: Record<string, string>;
}
