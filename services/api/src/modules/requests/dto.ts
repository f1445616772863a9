import type {
  AdminMediaRequest,
  IngestProgress,
  MediaRequest,
  NotifySubscriptionItem,
  RequestStatus,
} from '@usher/contracts';
import type { MediaRequestRow, UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A request row with the reviewer's username (joined), as lists and replies need it. */
export interface RequestView {
  row: MediaRequestRow;
  reviewerName: string | null;
}

/**
 * The reviewer as people see it: the Usher account that reviewed, else the Telegram id of an
 * approver bound to no account, else nothing (automatic approvals).
 */
function reviewerOf(view: RequestView): { username: string } | null {
  if (view.reviewerName) return { username: view.reviewerName };
  if (view.row.reviewerMessengerId !== null) {
    return { username: `messenger:${view.row.reviewerMessengerId}` };
  }
  return null;
}

export function toMediaRequest(view: RequestView): MediaRequest {
  const r = view.row;
  return {
    id: r.id,
    type: r.type as MediaRequest['type'],
    tmdbId: r.tmdbId,
    season: r.season,
    name: r.name,
    year: r.year,
    posterPath: r.posterPath,
    backdropPath: r.backdropPath,
    note: r.note,
    status: r.status as RequestStatus,
    reviewSource: r.reviewSource as MediaRequest['reviewSource'],
    reviewedAt: iso(r.reviewedAt),
    reviewer: reviewerOf(view),
    rejectReason: r.rejectReason,
    retryFromId: r.retryFromId,
    ingestProgress: (r.ingestProgress as IngestProgress | null) ?? null,
    ingestedAt: iso(r.ingestedAt),
    createdAt: r.createdAt.toISOString(),
  };
}

export function toAdminMediaRequest(view: RequestView): AdminMediaRequest {
  const r = view.row;
  return {
    ...toMediaRequest(view),
    requester: { id: r.userId, username: r.requesterName },
    automation: {
      dispatchedAt: iso(r.dispatchedAt),
      ref: r.automationRef,
      error: r.automationError,
      candidatesSearchedAt: iso(r.candidatesSearchedAt),
    },
  };
}

/** The request as every `/notify/subscription` event carries it (40-bot.md §2.3). */
export function toNotifyItem(
  row: MediaRequestRow,
  requester: Pick<UserRow, 'id' | 'username' | 'messengerId' | 'locale'> | null,
): NotifySubscriptionItem {
  return {
    id: row.id,
    mediaType: row.type === 'MOVIE' ? 'movie' : 'tv',
    tmdbId: row.tmdbId,
    title: row.name,
    year: row.year,
    season: row.season,
    posterPath: row.posterPath,
    note: row.note === '' ? null : row.note,
    requester: {
      userId: requester?.id ?? null,
      username: requester?.username ?? row.requesterName,
      messengerId: requester?.messengerId ?? null,
      locale: (requester?.locale as 'en' | 'zh-CN' | null | undefined) ?? null,
    },
  };
}

/** `S01E05` for the progress' `last` field. */
export function episodeCode(season: number, episode: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `S${pad(season)}E${pad(episode)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (id: string): boolean => UUID.test(id);

/** Malformed and unknown ids answer the entity's 404 (20-api.md §1.1). */
export function assertRequestId(id: string): void {
  if (!isUuid(id)) throw new AppError('REQUEST_NOT_FOUND', 'No such request');
}

/** The 201 reply of creating (or resubmitting) a request: the outcome and the new request. */
export function toCreateReply<R extends { outcome: string; row: RequestView['row'] }>(result: R) {
  return {
    outcome: result.outcome as R['outcome'],
    request: toMediaRequest({ row: result.row, reviewerName: null }),
  };
}
