import type { Plan } from '@usher/contracts';

const DAY_MS = 86_400_000;
/** A month as the per-month price counts it. */
const MONTH_DAYS = 30;

/** A plan as the pricing cards show it (issue 36, "renewal as a pricing page"). */
export interface PlanOffer {
  plan: Plan;
  /** The price of 30 days, in the plan's minor units (rounded); null for a plan of a month. */
  perMonth: number | null;
  /** The cheapest per day among the plans of its currency, when there are several. */
  bestValue: boolean;
  /** When the membership would end if this plan were bought now. */
  newExpiry: Date;
}

/** As the API extends a membership: max(now, current end) + days (membership/renewal.ts). */
export function extendedEnd(current: string | null, days: number, now: Date): Date {
  const end = current ? new Date(current) : null;
  const base = end && end.getTime() > now.getTime() ? end : now;
  return new Date(base.getTime() + days * DAY_MS);
}

/** Each plan with its per-month price, whether it is the best value and the expiry it gives. */
export function planOffers(
  plans: readonly Plan[],
  expiresAt: string | null,
  now: Date,
): PlanOffer[] {
  const perDay = (plan: Plan) => plan.price / Math.max(1, plan.days);
  const cheapest = new Map<string, number>();
  const count = new Map<string, number>();
  for (const plan of plans) {
    cheapest.set(plan.currency, Math.min(cheapest.get(plan.currency) ?? Infinity, perDay(plan)));
    count.set(plan.currency, (count.get(plan.currency) ?? 0) + 1);
  }
  return plans.map((plan) => ({
    plan,
    perMonth: plan.days >= 28 && plan.days <= 31 ? null : Math.round(perDay(plan) * MONTH_DAYS),
    bestValue: (count.get(plan.currency) ?? 0) > 1 && perDay(plan) === cheapest.get(plan.currency),
    newExpiry: extendedEnd(expiresAt, plan.days, now),
  }));
}
