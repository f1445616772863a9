// The hosted Checkout page at `session.url`: a minimal stand-in for checkout.stripe.com with the
// customer's choices as buttons. The demo and the e2e tests click these (spec 50 §5 checklist).
import type { CheckoutSession } from './sessions.js';
import { currencyExponent } from './validate.js';

export type HostedAction =
  'pay' | 'pay-later' | 'async-succeed' | 'async-fail' | 'expire' | 'cancel';

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Minor units shown in major units with the currency's own number of decimals. */
function money(amount: number, currency: string) {
  const digits = currencyExponent(currency.toLowerCase());
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency.toUpperCase()}`;
}

export function renderHostedPage(session: CheckoutSession): string {
  const button = (action: HostedAction, label: string) =>
    `<form method="post" action="/c/pay/${session.id}/${action}">` +
    `<button type="submit" name="action" value="${action}">${label}</button></form>`;
  const open = session.status === 'open';
  const pending = session.status === 'complete' && session.payment_status === 'unpaid';
  const total = money(Number(session.amount_total), String(session.currency));
  const buttons = [
    open ? button('pay', 'Pay') : '',
    open ? button('pay-later', 'Pay later (async payment method)') : '',
    pending ? button('async-succeed', 'Async payment succeeds') : '',
    pending ? button('async-fail', 'Async payment fails') : '',
    open ? button('expire', 'Let the session expire') : '',
    open ? button('cancel', 'Cancel and go back') : '',
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Fake Stripe Checkout</title>
<link rel="icon" href="data:,"></head>
<body>
<h1>Fake Stripe Checkout</h1>
<p>Session <code>${escape(session.id)}</code> · ${escape(session.status)} ·
${escape(session.payment_status)}</p>
<p>Total: <strong>${escape(total)}</strong></p>
${buttons}
</body>
</html>
`;
}

/** Where the browser goes after an action, with `{CHECKOUT_SESSION_ID}` filled in like Stripe. */
export function redirectAfter(session: CheckoutSession, action: HostedAction): string {
  const target =
    action === 'cancel'
      ? session.cancel_url
      : action === 'pay' || action === 'pay-later'
        ? session.success_url
        : null;
  if (typeof target !== 'string') return `/c/pay/${session.id}`;
  return target.replace('{CHECKOUT_SESSION_ID}', session.id);
}
