// Column builders every table shares (one definition instead of one per table file).
import { sql } from 'drizzle-orm';
import { check, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** A point in time: `timestamp with time zone`, read as a `Date`. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The required key of the row this one belongs to: `uuid NOT NULL REFERENCES parent ON DELETE
 * CASCADE`, so the row goes with its owner (a user's codes, a request's messages, …).
 */
export const ownerId = (name: string, owner: () => AnyPgColumn) =>
  uuid(name).notNull().references(owner, { onDelete: 'cascade' });

/** `created_at` and `updated_at`, both set on insert (a write sets `updatedAt` itself). */
export const timestamps = () => ({
  createdAt: instant('created_at').notNull().defaultNow(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

/** A TMDB image path (`/abc.jpg`), or null: the only form an image URL is built from. */
export const tmdbPathCheck = (name: string, column: AnyPgColumn) =>
  check(name, sql`${column} is null or ${column} ~ '^/[A-Za-z0-9._-]+$'`);
