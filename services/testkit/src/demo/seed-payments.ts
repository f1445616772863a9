// Plans and payments of the demo (issue 17): the admin's catalogue through `/admin/plans`, and
// members paying through the real checkout → Stripe fake → signed webhook path, so every payment
// state shows in the renewal page's history and on `/admin/payments`:
//   completed (card, and a delayed method that settled), failed (the delayed method failed),
//   expired (Stripe expired the session; a plan withdrawn under an open checkout) and pending
//   (an open checkout the member can still continue).
import type { FakeStripe } from '../stripe/server.js';
import type { MemberPlan } from './seed-plan.js';
import type { Session, UsherClient } from './usher-client.js';

export const DEMO_PLANS = [
  {
    name: 'Monthly',
    description: 'A month of films and series',
    days: 30,
    price: 499,
    currency: 'usd',
    sortOrder: 1,
  },
  {
    name: 'Quarterly',
    description: 'Three months, one payment',
    days: 90,
    price: 1299,
    currency: 'usd',
    sortOrder: 2,
  },
  {
    name: '年度会员',
    description: '一年，最划算',
    days: 365,
    price: 19800,
    currency: 'cny',
    sortOrder: 3,
  },
  { name: 'Yearly (yen)', description: '', days: 365, price: 5000, currency: 'jpy', sortOrder: 4 },
  {
    name: 'Launch offer',
    description: 'Withdrawn after launch week',
    days: 60,
    price: 1990,
    currency: 'kwd',
    sortOrder: 5,
  },
] as const;

type PaymentStatus = 'pending' | 'completed' | 'expired' | 'failed';
interface CreatedPlan {
  id: string;
  name: string;
}
interface Checkout {
  paymentId: string;
  url: string;
}

/** The checkout page's URL ends with the session id (`…/c/pay/cs_test_…`). */
const sessionIdOf = (checkout: Checkout) => checkout.url.slice(checkout.url.lastIndexOf('/') + 1);

export async function seedPayments(options: {
  api: UsherClient;
  admin: Session;
  sessionOf: (username: string) => Promise<Session>;
  members: MemberPlan[];
  stripe: FakeStripe;
}): Promise<Record<PaymentStatus, number>> {
  const { api, admin, stripe } = options;
  const plans = new Map<string, CreatedPlan>();
  for (const plan of DEMO_PLANS) {
    const created = await api.call<CreatedPlan>('POST', '/api/v1/admin/plans', {
      session: admin,
      body: plan,
    });
    plans.set(plan.name, created);
  }
  // Members who can renew (an expiry that is not "never"), in the plan's deterministic order,
  // expired ones last: which members lapse depends on the time of day the demo starts (the
  // quietest viewers), and a paid checkout would renew them, leaving the demo without the
  // expired members its pages and checks rely on.
  const renewable = options.members.filter(
    (m) => m.standing === 'active' || m.standing === 'expiring' || m.standing === 'expired',
  );
  const buyers = [
    ...renewable.filter((m) => m.standing !== 'expired'),
    ...renewable.filter((m) => m.standing === 'expired'),
  ];
  let next = 0;
  const buyer = () => buyers[next++ % buyers.length]!.username;
  const checkout = async (username: string, planName: string) =>
    api.call<Checkout>('POST', '/api/v1/payments/checkout', {
      session: await options.sessionOf(username),
      body: { planId: plans.get(planName)!.id },
    });
  const delivered = (what: string, result: { delivery: { status: number } | null }) => {
    if (result.delivery?.status !== 200) {
      throw new Error(
        `the Stripe webhook for ${what} answered ${result.delivery?.status ?? 'nothing'}`,
      );
    }
  };

  // Paid by card: checkout.session.completed (paid) fulfils at once.
  for (const planName of ['Monthly', 'Quarterly', '年度会员', 'Monthly', 'Yearly (yen)']) {
    const c = await checkout(buyer(), planName);
    delivered('a card payment', await stripe.pay(sessionIdOf(c)));
  }
  // A delayed method (bank debit) that settles: completed unpaid, then async_payment_succeeded.
  const later = await checkout(buyer(), 'Quarterly');
  delivered('a delayed payment', await stripe.payLater(sessionIdOf(later)));
  delivered('its settlement', await stripe.settleAsync(sessionIdOf(later), 'succeeded'));
  // A delayed method that fails.
  const bounced = await checkout(buyer(), 'Monthly');
  delivered('a delayed payment', await stripe.payLater(sessionIdOf(bounced)));
  delivered('its failure', await stripe.settleAsync(sessionIdOf(bounced), 'failed'));
  // Left on Stripe's page until the session expired.
  const abandoned = await checkout(buyer(), 'Quarterly');
  delivered('an expiry', await stripe.expire(sessionIdOf(abandoned)));
  // An open checkout of the launch offer, then the admin withdraws the offer: it expires too.
  await checkout(buyer(), 'Launch offer');
  await api.call('DELETE', `/api/v1/admin/plans/${plans.get('Launch offer')!.id}`, {
    session: admin,
  });
  // Still open: "Continue payment" on the member's Plans tab.
  await checkout(buyer(), 'Monthly');

  const counts = { pending: 0, completed: 0, expired: 0, failed: 0 };
  for (const status of Object.keys(counts) as PaymentStatus[]) {
    const page = await api.call<{ total: number }>(
      'GET',
      `/api/v1/admin/payments?status=${status}&pageSize=1`,
      { session: admin },
    );
    counts[status] = page.total;
  }
  return counts;
}
