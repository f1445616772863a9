import type { ReviewSource } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit, type AuditActor } from '../../audit-log/audit.js';
import type { Database } from '../../db/client.js';
import { type MediaRequestRow, type UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import { startOfZonedDay, zonedDay } from '../../time/zoned-day.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { isExpired } from '../membership/index.js';
import { dispatchAfterApproval } from './dispatch.js';
import { notifyRequestEvent } from './events.js';
import { checkLibrary, type TitleKey } from './library.js';
import {
  countPending,
  countQuotaApprovals,
  findBlockingRequest,
  hasResubmission,
  insertRequest,
  lockRequester,
  lockTitle,
} from './queries.js';
import { withTransaction } from '../../db/transaction.js';

export interface NewRequestInput extends TitleKey {
  name: string;
  year?: number | null;
  posterPath?: string | null;
  backdropPath?: string | null;
  note?: string;
  confirmExisting?: boolean;
}

/** Who asks: the member's row, and how the action is audited. */
export interface Requester {
  user: UserRow;
  actor: AuditActor;
  meta: RequestMeta;
}

export interface CreateResult {
  outcome: 'created' | 'auto_approved';
  row: MediaRequestRow;
}

/** Members need a linked, enabled media account; admins may always ask (10-data.md §10). */
function assertMayRequest(user: UserRow, now: Date): void {
  if (user.role === 'admin') return;
  if (!user.mediaUserId) {
    throw new AppError('MEDIA_ACCOUNT_UNLINKED', 'Your account has no media-server account');
  }
  if (isExpired(user, now) || user.mediaAccessDisabled) {
    throw new AppError(
      'MEDIA_ACCESS_REQUIRED',
      'Requests need active media access; renew your membership first',
    );
  }
}

function requestExists(row: MediaRequestRow): AppError {
  return new AppError('REQUEST_EXISTS', 'This title already has an active request', {
    details: { requestId: row.id, status: row.status },
  });
}

interface Review {
  source: ReviewSource;
  quota: { usedToday: number; dailyLimit: number } | null;
}

/**
 * Whether the request is approved at creation: an admin's with `REQUEST_ADMIN_AUTO_APPROVE`, or
 * a member's first `REQUEST_AUTO_APPROVE_DAILY_LIMIT` of the business day, counted under a lock
 * on the member's row so two parallel requests cannot both take the last slot.
 */
async function autoReview(ctx: ModuleContext, tx: Database, user: UserRow): Promise<Review | null> {
  const store = ctx.settings.store;
  if (user.role === 'admin') {
    const auto = await store.get('REQUEST_ADMIN_AUTO_APPROVE');
    return auto ? { source: 'auto_admin', quota: null } : null;
  }
  const dailyLimit = (await store.get('REQUEST_AUTO_APPROVE_DAILY_LIMIT')) || 0;
  if (dailyLimit <= 0) return null;
  await lockRequester(tx, user.id);
  const zone = await store.getString('SCHEDULE_TIMEZONE');
  const dayStart = startOfZonedDay(zonedDay(ctx.now(), zone), zone);
  const used = await countQuotaApprovals(tx, user.id, dayStart);
  if (used >= dailyLimit) return null;
  return { source: 'auto_quota', quota: { usedToday: used + 1, dailyLimit } };
}

/**
 * Creates a request (web, bot, or a resubmission with `retryFrom`): guards, library check (unless
 * confirmed), then one transaction under the title's advisory lock that re-checks uniqueness,
 * decides auto-approval, inserts and audits. The bot event and the hand-off follow the commit.
 */
export async function createRequest(
  ctx: ModuleContext,
  requester: Requester,
  input: NewRequestInput,
  retryFrom?: MediaRequestRow,
): Promise<CreateResult> {
  const { user } = requester;
  assertMayRequest(user, ctx.now());
  const blocking = await findBlockingRequest(ctx.db, input);
  if (blocking) throw requestExists(blocking);
  if (!input.confirmExisting) {
    const library = await checkLibrary(ctx, input, input.name);
    if (library.inLibrary) {
      throw new AppError('ALREADY_IN_LIBRARY', 'This title is already in the library', {
        details: { summary: library.summary },
      });
    }
  }
  const maxPending = (await ctx.settings.store.get('REQUEST_MAX_PENDING_PER_USER')) || 10;

  const result = await withTransaction(ctx, async (tx) => {
    await lockTitle(tx, input.type, input.tmdbId);
    const again = await findBlockingRequest(tx, input);
    if (again) throw requestExists(again);
    if (retryFrom && (await hasResubmission(tx, retryFrom.id))) {
      throw new AppError('REQUEST_STATE_CHANGED', 'This request was already resubmitted', {
        details: { status: retryFrom.status },
      });
    }
    const review = await autoReview(ctx, tx, user);
    if (!review && (await countPending(tx, user.id)) >= maxPending) {
      throw new AppError(
        'REQUEST_LIMIT_REACHED',
        `You already have ${maxPending} requests waiting for review`,
        { details: { maxPending } },
      );
    }
    const now = ctx.now();
    const row = await insertRequest(tx, {
      id: uuidv7(),
      userId: user.id,
      requesterName: user.username,
      type: input.type,
      tmdbId: input.tmdbId,
      season: input.season,
      name: input.name,
      year: input.year ?? null,
      posterPath: input.posterPath ?? null,
      backdropPath: input.backdropPath ?? null,
      note: input.note ?? '',
      status: review ? 'APPROVED' : 'PENDING',
      reviewSource: review?.source ?? null,
      reviewedAt: review ? now : null,
      reviewedVia: review ? 'system' : null,
      retryFromId: retryFrom?.id ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit(tx, {
      actor: requester.actor,
      action: retryFrom ? 'request.resubmit' : 'request.create',
      target: { type: 'media_request', id: row.id },
      details: {
        type: input.type,
        tmdbId: input.tmdbId,
        season: input.season,
        name: input.name,
        status: row.status,
        reviewSource: review?.source ?? null,
        ...(retryFrom ? { retryFromId: retryFrom.id } : {}),
        ...(input.confirmExisting ? { confirmExisting: true } : {}),
      },
      ip: requester.meta.ip,
      requestId: requester.meta.requestId,
    });
    return { row, review };
  });

  const { row, review } = result;
  if (review) {
    notifyRequestEvent(
      ctx,
      row.id,
      { event: 'auto_approved', quota: review.quota },
      requester.meta.requestId,
    );
    dispatchAfterApproval(ctx, row.id);
    return { outcome: 'auto_approved', row };
  }
  notifyRequestEvent(ctx, row.id, { event: 'created' }, requester.meta.requestId);
  return { outcome: 'created', row };
}
