export {
  startFakeStripe,
  type ActionResult,
  type FakeStripe,
  type FakeStripeOptions,
} from './server.js';
export {
  stripeSignatureHeader,
  serialiseEvent,
  type CheckoutEventType,
  type StripeEvent,
  type WebhookDelivery as StripeWebhookDelivery,
} from './events.js';
export type { CheckoutSession, Completion } from './sessions.js';
export { parseStripeForm } from './form.js';
