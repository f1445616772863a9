import { randomUUID } from 'node:crypto';
import type { NotifySubscriptionItem } from '@usher/contracts';

export const at = '2026-11-22T09:30:00.000Z';

export function subscription(patch: Partial<NotifySubscriptionItem> = {}): NotifySubscriptionItem {
  return {
    id: randomUUID(),
    mediaType: 'movie',
    tmdbId: 438631,
    title: 'Dune',
    year: 2021,
    season: 0,
    posterPath: '/dune.jpg',
    note: 'Please the 4K one',
    requester: { userId: randomUUID(), username: 'alice', messengerId: null, locale: null },
    ...patch,
  };
}

export function event(
  event: string,
  sub: NotifySubscriptionItem,
  extra: Record<string, unknown> = {},
) {
  return { event, eventId: randomUUID(), occurredAt: at, subscription: sub, ...extra };
}

export function registration(patch: Record<string, unknown> = {}) {
  return {
    eventId: randomUUID(),
    occurredAt: at,
    userId: randomUUID(),
    username: 'newbie',
    email: 'newbie@example.org',
    mediaUserId: 'a1b2c3',
    mode: 'invite',
    expiresAt: '2026-12-22T09:30:00.000Z',
    createdAt: at,
    ...patch,
  };
}

export function payment(patch: Record<string, unknown> = {}) {
  return {
    eventId: randomUUID(),
    occurredAt: at,
    paymentId: randomUUID(),
    userId: randomUUID(),
    username: 'payer',
    planId: randomUUID(),
    planName: 'Monthly',
    amount: 1299,
    currency: 'usd',
    days: 30,
    previousExpiresAt: '2026-12-01T00:00:00.000Z',
    newExpiresAt: '2026-12-31T00:00:00.000Z',
    completedAt: at,
    ...patch,
  };
}

export function ranking(patch: Record<string, unknown> = {}) {
  return {
    eventId: randomUUID(),
    occurredAt: at,
    batchId: randomUUID(),
    period: 'daily',
    periodStart: '2026-11-21',
    periodEnd: '2026-11-21',
    cutoffAt: '2026-11-22T00:00:00.000Z',
    timezone: 'Asia/Shanghai',
    totalDurationSeconds: 93_780,
    movies: [
      { rank: 1, name: 'Dune', playCount: 12, durationSeconds: 54_000 },
      { rank: 2, name: 'Heat <1995>', playCount: 3, durationSeconds: 9_000 },
    ],
    series: [{ rank: 1, name: 'Severance', playCount: 7, durationSeconds: 30_780 }],
    ...patch,
  };
}
