import type { Plan } from '@usher/contracts';
import { extendedEnd, planOffers } from './pricing';

const plan = (overrides: Partial<Plan>): Plan => ({
  id: '01936f6e-8a7b-7c3d-9e4f-0123456789a1',
  name: 'Monthly',
  description: '',
  days: 30,
  price: 499,
  currency: 'usd',
  isActive: true,
  sortOrder: 0,
  maxStreams: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('plan offers', () => {
  const now = new Date('2026-12-07T12:00:00.000Z');

  it('should give each plan its price a month, the best value and the expiry it buys', () => {
    const [monthly, yearly, other] = planOffers(
      [
        plan({ name: 'Monthly' }),
        plan({ name: 'Yearly', days: 365, price: 4999 }),
        plan({ name: 'Yen', currency: 'jpy', price: 500 }),
      ],
      '2026-12-17T12:00:00.000Z',
      now,
    );
    // A month's plan says its price once.
    expect(monthly!.perMonth).toBeNull();
    expect(yearly!.perMonth).toBe(411);
    expect([monthly!.bestValue, yearly!.bestValue]).toEqual([false, true]);
    // Alone in its currency: nothing to compare with.
    expect(other!.bestValue).toBe(false);
    // Ten days left: the plan's days come after them.
    expect(monthly!.newExpiry.toISOString()).toBe('2027-01-16T12:00:00.000Z');
  });

  it('should count from now once the membership has ended, as the API does', () => {
    expect(extendedEnd('2026-11-01T00:00:00.000Z', 30, now).toISOString()).toBe(
      '2027-01-06T12:00:00.000Z',
    );
    expect(extendedEnd(null, 1, now).toISOString()).toBe('2026-12-08T12:00:00.000Z');
  });
});
