import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instant, ownerId } from '../columns.js';
import { users } from '../users/table.js';

/**
 * Sign-ins at an OpenID provider linked to an account (docs/sso.md). An account is found by
 * (issuer, subject) only — never by e-mail, unless `OIDC_LINK_BY_VERIFIED_EMAIL` links a
 * provider-verified address once, which then writes a row here.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey(),
    userId: ownerId('user_id', () => users.id),
    /** The provider's issuer identifier exactly as it writes `iss`. */
    issuer: text('issuer').notNull(),
    /** The provider's stable subject (`sub`) for this person. */
    subject: text('subject').notNull(),
    /** The address the provider reported at the last sign-in (display only). */
    email: text('email'),
    createdAt: instant('created_at').notNull().defaultNow(),
    lastUsedAt: instant('last_used_at'),
  },
  (t) => [
    uniqueIndex('user_identities_issuer_subject_uq').on(t.issuer, t.subject),
    index('user_identities_user_idx').on(t.userId),
    check('user_identities_subject_len_ck', sql`char_length(${t.subject}) between 1 and 255`),
  ],
);

export type UserIdentityRow = typeof userIdentities.$inferSelect;

/**
 * One-time hand-offs from the provider callback to the web app (docs/sso.md): the callback
 * stores what the provider said under the hash of a random code and redirects with the code;
 * `POST /auth/oidc/exchange` claims the row. Rows live minutes; expired ones are swept on insert.
 */
export const ssoHandoffs = pgTable(
  'sso_handoffs',
  {
    id: uuid('id').primaryKey(),
    /** SHA-256 (hex) of the one-time code; the code itself is never stored. */
    codeHash: text('code_hash').notNull(),
    /** `login`: an existing account signs in; `register`: a new member still to be created. */
    kind: text('kind').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** For `register`: the verified identity and the claims needed to create the account. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: instant('expires_at').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sso_handoffs_code_hash_uq').on(t.codeHash),
    index('sso_handoffs_expires_idx').on(t.expiresAt),
    check('sso_handoffs_kind_ck', sql`${t.kind} in ('login', 'register')`),
  ],
);

export type SsoHandoffRow = typeof ssoHandoffs.$inferSelect;
