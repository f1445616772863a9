import { pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from '../columns.js';

/**
 * The bot's polling lease (10-data.md "bot_leases", 40-bot.md §3.2): one row,
 * `messenger_polling`, that one polling bot holds. The bot writes it with the spec's statements
 * through `pg` and never migrates; the API creates the table here. The API itself never reads it.
 */
export const botLeases = pgTable('bot_leases', {
  name: text('name').primaryKey(),
  ownerId: text('owner_id').notNull(),
  expiresAt: instant('expires_at').notNull(),
  acquiredAt: instant('acquired_at').notNull(),
  renewedAt: instant('renewed_at').notNull(),
});
