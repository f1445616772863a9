// Public surface of the payments module (plans, Stripe Checkout, the Stripe webhook, payment
// lists, the payments_expire job). app.ts and other modules import from here only.
export { paymentRoutes, type PaymentRouteOptions } from './routes.js';
export { paymentsJobs, PAYMENTS_EXPIRE_JOB, runPaymentsExpire } from './jobs.js';
export { paymentsEnabled, stripeReady } from './enabled.js';
export { sessionParams, CHECKOUT_DEADLINE_MS } from './checkout.js';
