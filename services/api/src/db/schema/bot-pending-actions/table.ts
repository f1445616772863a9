import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instant, timestamps } from '../columns.js';

/**
 * TTL rows for the bot's multi-step dialogs (10-data.md §5), so any bot replica can continue a
 * conversation. The payload is opaque to the API.
 */
export const botPendingActions = pgTable(
  'bot_pending_actions',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').notNull(),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    messengerUserId: bigint('messenger_user_id', { mode: 'number' }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    expiresAt: instant('expires_at').notNull(),
    ...timestamps(),
  },
  (t) => [
    // Creating an action replaces the live one for the same key.
    uniqueIndex('bot_pending_actions_key_uq').on(t.kind, t.chatId, t.messengerUserId),
    index('bot_pending_actions_expires_idx').on(t.expiresAt),
    check('bot_pending_actions_kind_ck', sql`${t.kind} ~ '^[a-z][a-z0-9_]{1,31}$'`),
  ],
);
export type BotPendingActionRow = typeof botPendingActions.$inferSelect;
