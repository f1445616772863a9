import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { instant, ownerId, timestamps, tmdbPathCheck } from '../columns.js';
import type { IngestProgress } from '@usher/contracts';
import { users } from '../users/table.js';

/** One stored manual-search hit (10-data.md `automation_candidates`). */
export interface StoredCandidate {
  index: number;
  title: string;
  site: string;
  sizeBytes: number | null;
  seeders: number | null;
  peers: number | null;
  publishedAt: string | null;
  volumeFactor: string | null;
  /** The tool's candidate exactly as received; sent back unchanged on dispatch. */
  raw: Record<string, unknown>;
}

/** Members' requests for movies and series (10-data.md §4, the seed's "subscriptions"). */
export const mediaRequests = pgTable(
  'media_requests',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    requesterName: text('requester_name').notNull(),
    type: text('type').notNull(),
    tmdbId: integer('tmdb_id').notNull(),
    season: integer('season').notNull().default(0),
    name: text('name').notNull(),
    year: integer('year'),
    posterPath: text('poster_path'),
    /** TMDB backdrop of the title, taken from the search result at creation (issue 14). */
    backdropPath: text('backdrop_path'),
    note: text('note').notNull().default(''),
    status: text('status').notNull().default('PENDING'),
    reviewSource: text('review_source'),
    reviewedAt: instant('reviewed_at'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedVia: text('reviewed_via'),
    reviewerMessengerId: bigint('reviewer_messenger_id', { mode: 'number' }),
    rejectReason: text('reject_reason'),
    retryFromId: uuid('retry_from_id').references((): AnyPgColumn => mediaRequests.id, {
      onDelete: 'set null',
    }),
    dispatchedAt: instant('dispatched_at'),
    automationRef: text('automation_ref'),
    automationError: text('automation_error'),
    automationCandidates: jsonb('automation_candidates').$type<StoredCandidate[]>(),
    candidatesSearchedAt: instant('candidates_searched_at'),
    ingestProgress: jsonb('ingest_progress').$type<IngestProgress>(),
    ingestedAt: instant('ingested_at'),
    ...timestamps(),
  },
  (t) => [
    // One active request per title/season; REJECTED never blocks.
    uniqueIndex('media_requests_active_uq')
      .on(t.type, t.tmdbId, t.season)
      .where(sql`${t.status} in ('PENDING', 'APPROVED', 'INGESTED')`),
    // `desc` indexes are written `nulls first`, as `order by … desc` reads (issue 33).
    index('media_requests_user_idx').on(
      t.userId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('media_requests_status_idx').on(
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('media_requests_created_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('media_requests_retry_from_idx').on(t.retryFromId),
    index('media_requests_quota_idx')
      .on(t.userId, t.reviewedAt)
      .where(sql`${t.reviewSource} = 'auto_quota'`),
    check('media_requests_type_ck', sql`${t.type} in ('MOVIE', 'TV')`),
    check('media_requests_tmdb_id_ck', sql`${t.tmdbId} > 0`),
    check('media_requests_season_ck', sql`${t.season} >= 0`),
    check('media_requests_movie_season_ck', sql`${t.type} = 'TV' or ${t.season} = 0`),
    check(
      'media_requests_status_ck',
      sql`${t.status} in ('PENDING', 'APPROVED', 'REJECTED', 'INGESTED')`,
    ),
    check(
      'media_requests_review_source_ck',
      sql`${t.reviewSource} is null or ${t.reviewSource} in ('manual', 'auto_quota', 'auto_admin')`,
    ),
    check(
      'media_requests_reviewed_via_ck',
      sql`${t.reviewedVia} is null or ${t.reviewedVia} in ('web', 'messenger', 'system')`,
    ),
    check(
      'media_requests_reject_reason_ck',
      sql`${t.status} <> 'REJECTED' or ${t.rejectReason} is not null`,
    ),
    check('media_requests_name_len_ck', sql`char_length(${t.name}) between 1 and 200`),
    check('media_requests_note_len_ck', sql`char_length(${t.note}) <= 500`),
    check(
      'media_requests_reject_reason_len_ck',
      sql`${t.rejectReason} is null or char_length(${t.rejectReason}) <= 500`,
    ),
    check(
      'media_requests_automation_error_len_ck',
      sql`${t.automationError} is null or char_length(${t.automationError}) <= 500`,
    ),
    tmdbPathCheck('media_requests_poster_path_ck', t.posterPath),
    tmdbPathCheck('media_requests_backdrop_path_ck', t.backdropPath),
  ],
);
export type MediaRequestRow = typeof mediaRequests.$inferSelect;
export type NewMediaRequestRow = typeof mediaRequests.$inferInsert;

/** Messenger messages that announced a request, so later state changes can edit them. */
export const requestAdminMessages = pgTable(
  'request_admin_messages',
  {
    id: uuid('id').primaryKey(),
    requestId: ownerId('request_id', () => mediaRequests.id),
    approverMessengerId: bigint('approver_messenger_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    messageId: bigint('message_id', { mode: 'number' }),
    hasPhoto: boolean('has_photo').notNull().default(false),
    deliveryStatus: text('delivery_status').notNull(),
    failureReason: text('failure_reason'),
    ...timestamps(),
  },
  (t) => [
    index('request_admin_messages_request_idx').on(t.requestId),
    uniqueIndex('request_admin_messages_message_uq')
      .on(t.chatId, t.messageId)
      .where(sql`${t.messageId} is not null`),
    check(
      'request_admin_messages_status_ck',
      sql`${t.deliveryStatus} in ('sent', 'send_failed', 'edit_failed', 'deleted')`,
    ),
    check(
      'request_admin_messages_reason_len_ck',
      sql`${t.failureReason} is null or char_length(${t.failureReason}) <= 500`,
    ),
  ],
);
export type RequestAdminMessageRow = typeof requestAdminMessages.$inferSelect;
