import type Stripe from 'stripe';
import { z } from 'zod';
import { probing, type IntegrationDeps, type ProbeResult } from '../common.js';
import { IntegrationError, redact, type IntegrationErrorKind } from '../errors.js';
import type { IntegrationMetrics, Outcome } from '../../metrics/integrations.js';
import { createStripeClient } from './client.js';
import type {
  CheckoutInput,
  CheckoutSessionCreated,
  CheckoutSessionState,
  StripeSettings,
} from './types.js';

/** Stripe allows 30 min–24 h; the local pending payment lives 30 min, the session one more. */
export const CHECKOUT_LIFETIME_SECONDS = 31 * 60;

const status = z.enum(['open', 'complete', 'expired']);
const createdReply = z.object({
  id: z.string(),
  url: z.string().nullable(),
  status,
  expires_at: z.number(),
});
const stateReply = z.object({
  id: z.string(),
  status,
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullable(),
  amount_total: z.number().nullable(),
  currency: z.string().nullable(),
  metadata: z.record(z.string(), z.string()).nullable(),
});
const listReply = z.object({ data: z.array(z.object({ id: z.string() })) });

/** The SDK's error classes by `type`, mapped onto Usher's kinds. */
function kindOf(err: Stripe.errors.StripeError): IntegrationErrorKind {
  switch (err.type) {
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return 'auth';
    case 'StripeConnectionError':
      return /timeout|timed out/i.test(err.message) ? 'timeout' : 'network';
    case 'StripeInvalidRequestError':
      return err.statusCode === 404 ? 'not_found' : 'rejected';
    case 'StripeCardError':
      return 'rejected';
    case 'StripeRateLimitError':
    case 'StripeIdempotencyError':
      return 'http_4xx';
    default:
      return err.statusCode !== undefined && err.statusCode < 500 ? 'http_4xx' : 'http_5xx';
  }
}

const OUTCOME: Record<IntegrationErrorKind, Outcome> = {
  auth: 'http_4xx',
  rejected: 'http_4xx',
  not_found: 'http_4xx',
  http_4xx: 'http_4xx',
  http_5xx: 'http_5xx',
  timeout: 'timeout',
  network: 'network',
  tls: 'network',
  invalid_response: 'invalid_response',
  not_configured: 'network',
};

/** The SDK's errors all carry a `type` starting with "Stripe" (its classes are per client). */
const isStripeError = (err: unknown): err is Stripe.errors.StripeError =>
  err instanceof Error && String((err as Error & { type?: unknown }).type).startsWith('Stripe');

/**
 * Stripe Checkout through the official SDK (50-integrations.md §5): create with an idempotency
 * key per payment, read back, expire (an already closed session counts as expired), probe.
 */
export class StripePayments {
  private readonly stripe: Stripe;
  private readonly metrics: IntegrationMetrics | undefined;
  private readonly now: () => Date;

  constructor(
    readonly settings: StripeSettings,
    deps: IntegrationDeps & { now?: () => Date } = {},
    options: { timeoutMs?: number; maxNetworkRetries?: number } = {},
  ) {
    this.stripe = createStripeClient(settings.secretKey, settings.apiBase, options);
    this.metrics = deps.metrics;
    this.now = deps.now ?? (() => new Date());
  }

  /** From the key itself: `sk_test_…`/`rk_test_…` or live. */
  get mode(): 'test' | 'live' {
    return /^(sk|rk)_test_/.test(this.settings.secretKey) ? 'test' : 'live';
  }

  /** The exact parameters of §5; retried by the SDK under `checkout:<paymentId>`. */
  async createCheckoutSession(input: CheckoutInput): Promise<CheckoutSessionCreated> {
    const methods = this.settings.paymentMethods;
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      line_items: [
        {
          price_data: {
            currency: input.currency,
            unit_amount: input.amount,
            product_data: {
              name: input.productName,
              // Stripe refuses an empty string here (it reads as "unset").
              ...(input.productDescription ? { description: input.productDescription } : {}),
            },
          },
          quantity: 1,
        },
      ],
      success_url: this.settings.successUrl,
      cancel_url: this.settings.cancelUrl,
      client_reference_id: input.paymentId,
      ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
      metadata: {
        paymentId: input.paymentId,
        userId: input.userId,
        planId: input.planId,
        days: String(input.days),
      },
      payment_intent_data: { metadata: { paymentId: input.paymentId } },
      expires_at: input.expiresAt
        ? Math.floor(input.expiresAt.getTime() / 1000)
        : Math.floor(this.now().getTime() / 1000) + CHECKOUT_LIFETIME_SECONDS,
      ...(input.locale
        ? { locale: input.locale as Stripe.Checkout.SessionCreateParams.Locale }
        : {}),
      ...(methods.length > 0
        ? {
            // The SDK pins API version 2026-10-28.endive, which removed `payment_method_types`
            // on Checkout Sessions (50-integrations.md §5 predates it); this is its replacement.
            allowed_payment_method_types:
              methods as Stripe.Checkout.SessionCreateParams.AllowedPaymentMethodType[],
            // Stripe requires the WeChat Pay client type whenever WeChat Pay is offered.
            ...(methods.includes('wechat_pay')
              ? { payment_method_options: { wechat_pay: { client: 'web' as const } } }
              : {}),
          }
        : {}),
    };
    const session = await this.call('create_checkout', createdReply, () =>
      this.stripe.checkout.sessions.create(params, {
        idempotencyKey: `checkout:${input.paymentId}`,
      }),
    );
    return {
      id: session.id,
      url: session.url,
      status: session.status,
      expiresAt: new Date(session.expires_at * 1000),
    };
  }

  /** Throws `not_found` for an unknown session. */
  async retrieveCheckoutSession(id: string): Promise<CheckoutSessionState> {
    const s = await this.call('read_checkout', stateReply, () =>
      this.stripe.checkout.sessions.retrieve(id),
    );
    return {
      id: s.id,
      status: s.status,
      paymentStatus: s.payment_status,
      paymentIntent:
        typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
      amountTotal: s.amount_total,
      currency: s.currency,
      metadata: s.metadata ?? {},
    };
  }

  /**
   * Expires an open session. Stripe answers 400 when it is already expired or complete; that
   * counts as success, and the session's actual status is returned.
   */
  async expireCheckoutSession(id: string): Promise<{ status: CheckoutSessionState['status'] }> {
    try {
      const s = await this.call('expire_checkout', createdReply, () =>
        this.stripe.checkout.sessions.expire(id, {}, { idempotencyKey: `expire:${id}` }),
      );
      return { status: s.status };
    } catch (err) {
      // Only Stripe's 400 for a closed session is expected; re-reading tells closed from open.
      if (!(err instanceof IntegrationError) || err.kind !== 'rejected' || err.status !== 400) {
        throw err;
      }
      const current = await this.retrieveCheckoutSession(id);
      if (current.status === 'open') throw err;
      return { status: current.status };
    }
  }

  /** `GET /v1/checkout/sessions?limit=1` with the secret key; reports test or live mode. */
  probe(): Promise<ProbeResult> {
    return probing(async () => {
      await this.call('probe', listReply, () => this.stripe.checkout.sessions.list({ limit: 1 }));
      return { ok: true, message: `Stripe accepted the key (${this.mode} mode)`, details: [] };
    });
  }

  /** Runs one SDK call with the metric, maps Stripe's errors and parses the reply. */
  private async call<T>(
    operation: string,
    schema: z.ZodType<T>,
    run: () => Promise<unknown>,
  ): Promise<T> {
    const started = performance.now();
    const labels = { system: 'stripe' as const, operation };
    const record = (outcome: Outcome) => {
      this.metrics?.requests.inc({ ...labels, outcome });
      this.metrics?.duration.observe(labels, (performance.now() - started) / 1000);
    };
    let reply: unknown;
    try {
      reply = await run();
    } catch (err) {
      // The SDK reports every API and network failure by rejecting with a StripeError.
      if (!isStripeError(err)) throw err;
      const kind = kindOf(err);
      record(OUTCOME[kind]);
      throw this.toIntegrationError(err, operation, kind);
    }
    const parsed = schema.safeParse(reply);
    if (!parsed.success) {
      record('invalid_response');
      throw new IntegrationError(
        'stripe',
        operation,
        'invalid_response',
        'Stripe sent a reply Usher cannot read',
      );
    }
    record('ok');
    return parsed.data;
  }

  private toIntegrationError(
    err: Stripe.errors.StripeError,
    operation: string,
    kind: IntegrationErrorKind,
  ): IntegrationError {
    const upstream = redact(err.message, [this.settings.secretKey]);
    const code = err.statusCode ?? '';
    const message: Record<IntegrationErrorKind, string> = {
      auth: `Stripe refused the secret key (${code})`,
      timeout: 'Stripe did not answer in time',
      network: 'Stripe is unreachable',
      tls: 'Stripe could not be reached over a trusted TLS connection',
      rejected: `Stripe refused the request: ${upstream}`,
      not_found: 'Stripe has no such checkout session',
      http_4xx: `Stripe answered HTTP ${code}`,
      http_5xx: `Stripe answered HTTP ${code}`,
      invalid_response: 'Stripe sent a reply Usher cannot read',
      not_configured: 'Stripe is not configured',
    };
    return new IntegrationError('stripe', operation, kind, message[kind], err.statusCode, upstream);
  }
}
