/**
 * Reply shapes of the internal routes the bot reads (20-api.md §7), all from the shared
 * contracts, gathered here under the names the bot uses.
 */
import {
  createdPendingActionSchema,
  createRequestReplySchema as contractCreateRequestReply,
  internalReviewReplySchema,
  messengerBindResponseSchema,
  messengerLookupResponseSchema,
  messengerRedeemResponseSchema,
  messengerResetPasswordResponseSchema,
  metadataSearchReplySchema,
  pendingActionSchema as contractPendingAction,
  tvSeasonsReplySchema,
} from '@usher/contracts';
import type { z } from 'zod';

export { existingSummarySchema } from '@usher/contracts';

export const bindReplySchema = messengerBindResponseSchema;
export type BindReply = z.infer<typeof bindReplySchema>;

export const accountSchema = messengerLookupResponseSchema;
export type Account = z.infer<typeof accountSchema>;

export const redeemReplySchema = messengerRedeemResponseSchema;
export type RedeemReply = z.infer<typeof redeemReplySchema>;

export const resetPasswordReplySchema = messengerResetPasswordResponseSchema;
export type ResetPasswordReply = z.infer<typeof resetPasswordReplySchema>;

export const searchReplySchema = metadataSearchReplySchema;
export type SearchReply = z.infer<typeof searchReplySchema>;
export type MetadataResult = SearchReply['data'][number];

export const seasonsReplySchema = tvSeasonsReplySchema;
export type SeasonsReply = z.infer<typeof seasonsReplySchema>;

export const createRequestReplySchema = contractCreateRequestReply;
export type CreateRequestReply = z.infer<typeof createRequestReplySchema>;

export const reviewReplySchema = internalReviewReplySchema;
export type ReviewReply = z.infer<typeof reviewReplySchema>;
export type AdminRequestView = ReviewReply['request'];

export interface CreateRequestInput {
  messengerId: number;
  languageCode?: string;
  type: 'MOVIE' | 'TV';
  tmdbId: number;
  season: number;
  name: string;
  year: number | null;
  posterPath: string | null;
  confirmExisting: boolean;
}

export interface AdminMessageInput {
  approverMessengerId?: number;
  chatId: number;
  messageId?: number;
  hasPhoto: boolean;
  status: 'sent' | 'send_failed';
  reason?: string;
}

export const pendingCreatedSchema = createdPendingActionSchema;
export type PendingCreated = z.infer<typeof pendingCreatedSchema>;

export const pendingActionSchema = contractPendingAction;
export type PendingAction = z.infer<typeof pendingActionSchema>;
