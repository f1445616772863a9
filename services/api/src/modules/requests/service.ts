import type {
  AdminMediaRequest,
  CheckExistingReply,
  MediaRequest,
  RequestStatus,
} from '@usher/contracts';
import { accountActor, type AuditActor } from '../../audit-log/audit.js';
import { type UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { internalSettings } from '../settings/index.js';
import { createRequest, type CreateResult, type NewRequestInput } from './create.js';
import { toAdminMediaRequest, toMediaRequest } from './dto.js';
import { checkLibrary, type TitleKey } from './library.js';
import {
  findBlockingRequest,
  findRequestView,
  findUser,
  hasResubmission,
  listRequests,
  saveAdminMessage,
  setLocaleIfUnset,
  userByMessenger,
} from './queries.js';
import { approveRequest, mustFind, rejectRequest, stateChanged, type Reviewer } from './review.js';
import { withTransaction } from '../../db/transaction.js';

export async function loadUser(ctx: ModuleContext, id: string): Promise<UserRow> {
  const user = await findUser(ctx.db, id);
  if (!user) throw new AppError('USER_NOT_FOUND', 'No such user');
  return user;
}

export async function adminView(ctx: ModuleContext, id: string): Promise<AdminMediaRequest> {
  const view = await findRequestView(ctx.db, id);
  if (!view) throw new AppError('REQUEST_NOT_FOUND', 'No such request');
  return toAdminMediaRequest(view);
}

export async function memberView(ctx: ModuleContext, id: string): Promise<MediaRequest> {
  const view = await findRequestView(ctx.db, id);
  if (!view) throw new AppError('REQUEST_NOT_FOUND', 'No such request');
  return toMediaRequest(view);
}

export async function listOwn(
  ctx: ModuleContext,
  userId: string,
  query: { status?: RequestStatus; page: number; pageSize: number },
) {
  const { views, total } = await listRequests(ctx.db, { ...query, userId });
  return { data: views.map(toMediaRequest), total, page: query.page, pageSize: query.pageSize };
}

export async function listAll(ctx: ModuleContext, query: Parameters<typeof listRequests>[1]) {
  const { views, total } = await listRequests(ctx.db, query);
  return {
    data: views.map(toAdminMediaRequest),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** `POST /media-requests/check-existing`: library state and the blocking request, if any. */
export async function checkExisting(
  ctx: ModuleContext,
  key: TitleKey,
): Promise<CheckExistingReply> {
  const [library, blocking] = await Promise.all([
    checkLibrary(ctx, key),
    findBlockingRequest(ctx.db, key),
  ]);
  return {
    ...library,
    ...(blocking
      ? { activeRequest: { id: blocking.id, status: blocking.status as RequestStatus } }
      : {}),
  };
}

/** Creation by the signed-in member (web). */
export async function createOwn(
  ctx: ModuleContext,
  userId: string,
  input: NewRequestInput,
  meta: RequestMeta,
): Promise<CreateResult> {
  const user = await loadUser(ctx, userId);
  return createRequest(ctx, { user, actor: accountActor(user), meta }, input);
}

/**
 * `POST /media-requests/:id/resubmit`: the owner's REJECTED request comes back as a new PENDING
 * row with a new note; only the newest row of a chain may be resubmitted.
 */
export async function resubmitOwn(
  ctx: ModuleContext,
  userId: string,
  id: string,
  input: { note: string; confirmExisting?: boolean },
  meta: RequestMeta,
): Promise<CreateResult> {
  const old = await mustFind(ctx, id).catch(() => undefined);
  // Someone else's request is "not found" too: members never learn which ids exist.
  if (!old || old.userId !== userId) throw new AppError('REQUEST_NOT_FOUND', 'No such request');
  if (old.status !== 'REJECTED') throw stateChanged(old);
  if (await hasResubmission(ctx.db, old.id)) {
    throw new AppError('REQUEST_STATE_CHANGED', 'This request was already resubmitted', {
      details: { status: old.status },
    });
  }
  const user = await loadUser(ctx, userId);
  const actor = accountActor(user);
  return createRequest(
    ctx,
    { user, actor, meta },
    {
      type: old.type as 'MOVIE' | 'TV',
      tmdbId: old.tmdbId,
      season: old.season,
      name: old.name,
      year: old.year,
      posterPath: old.posterPath,
      backdropPath: old.backdropPath,
      note: input.note,
      confirmExisting: input.confirmExisting,
    },
    old,
  );
}

/** The bound member behind a Telegram id, storing their locale from `languageCode` if unset. */
export async function memberByMessenger(
  ctx: ModuleContext,
  messengerId: number,
  languageCode?: string,
): Promise<UserRow> {
  const user = await userByMessenger(ctx.db, messengerId);
  if (!user) throw new AppError('MESSENGER_NOT_BOUND', 'This Telegram account is not bound');
  const locale = languageCode?.startsWith('zh')
    ? 'zh-CN'
    : languageCode?.startsWith('en')
      ? 'en'
      : null;
  if (locale && user.locale === null) {
    await setLocaleIfUnset(ctx.db, user.id, locale, ctx.now());
    return { ...user, locale };
  }
  return user;
}

/** `POST /internal/media-requests`: creation for a bound member, audited as the bot. */
export async function createForMessenger(
  ctx: ModuleContext,
  messengerId: number,
  languageCode: string | undefined,
  input: NewRequestInput,
  meta: RequestMeta,
): Promise<CreateResult> {
  const user = await memberByMessenger(ctx, messengerId, languageCode);
  const actor: AuditActor = { type: 'bot', id: user.id, label: `messenger:${messengerId}` };
  return createRequest(ctx, { user, actor, meta }, input);
}

/**
 * `NOT_AN_APPROVER` (30-settings.md §4.7): the id must be in `MESSENGER_APPROVER_IDS`; with an
 * empty list, the admin chat decides — a person (positive id) must be that person, a group is
 * checked by the bot (group admins) and the API accepts any id; with no admin chat, nobody.
 */
async function messengerReviewer(
  ctx: ModuleContext,
  messengerId: number,
  meta: RequestMeta,
): Promise<Reviewer> {
  const settings = await internalSettings(ctx);
  const allowed =
    settings.approverFallback === 'admin_group' ||
    (settings.approverFallback === 'admin_user' && settings.adminChatId === String(messengerId)) ||
    settings.approverIds.includes(String(messengerId));
  if (!allowed)
    throw new AppError('NOT_AN_APPROVER', 'This Telegram account may not review requests');
  const bound = await userByMessenger(ctx.db, messengerId);
  return {
    via: 'messenger',
    userId: bound?.id ?? null,
    messengerId,
    actor: { type: 'bot', id: bound?.id ?? null, label: `messenger:${messengerId}` },
    meta,
  };
}

/** Bot approve: already APPROVED/INGESTED → `changed:false`; REJECTED → 409. */
export async function approveFromMessenger(
  ctx: ModuleContext,
  id: string,
  approverMessengerId: number,
  meta: RequestMeta,
) {
  const reviewer = await messengerReviewer(ctx, approverMessengerId, meta);
  const result = await approveRequest(ctx, id, reviewer);
  if (!result.changed && result.row.status === 'REJECTED') throw stateChanged(result.row);
  return { request: await adminView(ctx, id), changed: result.changed };
}

/** Bot reject: already REJECTED → `changed:false` (first reason kept); APPROVED/INGESTED → 409. */
export async function rejectFromMessenger(
  ctx: ModuleContext,
  id: string,
  body: { approverMessengerId: number; reason: string; pendingActionId?: string },
  meta: RequestMeta,
) {
  const reviewer = await messengerReviewer(ctx, body.approverMessengerId, meta);
  const result = await rejectRequest(ctx, id, body.reason, reviewer, body.pendingActionId);
  if (!result.changed && result.row.status !== 'REJECTED') throw stateChanged(result.row);
  return { request: await adminView(ctx, id), changed: result.changed };
}

export interface AdminMessageInput {
  approverMessengerId?: number | null;
  chatId: number;
  messageId?: number | null;
  hasPhoto: boolean;
  status: 'sent' | 'send_failed';
  reason?: string | null;
}

/**
 * `POST /internal/media-requests/:id/admin-messages`: records the approval copies the bot sent.
 * A copy with a message id is upserted on (chat, message); a failed send (no message id)
 * replaces the earlier failure recorded for the same chat.
 */
export async function recordAdminMessages(
  ctx: ModuleContext,
  id: string,
  messages: AdminMessageInput[],
): Promise<void> {
  await mustFind(ctx, id);
  const now = ctx.now();
  await withTransaction(ctx, async (tx) => {
    for (const m of messages) {
      const values = {
        requestId: id,
        approverMessengerId: m.approverMessengerId ?? null,
        chatId: m.chatId,
        messageId: m.messageId ?? null,
        hasPhoto: m.hasPhoto,
        deliveryStatus: m.status,
        failureReason: m.reason ? m.reason.slice(0, 500) : null,
        updatedAt: now,
      };
      await saveAdminMessage(tx, values);
    }
  });
}
