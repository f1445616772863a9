import { integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * Storage for rate-limiter-flexible's RateLimiterDrizzle (10-data.md §9): the library reads and
 * writes rows by these exact property names (`key`, `points`, `expire`).
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true, mode: 'date' }),
});
