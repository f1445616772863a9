// Column builders every table shares (one definition instead of one per table file).
import { timestamp } from 'drizzle-orm/pg-core';

/** A point in time: `timestamp with time zone`, read as a `Date`. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
