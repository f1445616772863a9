/**
 * Calls to the Usher API's internal routes (40-bot.md §4, 20-api.md §7). Every call carries
 * X-Internal-Secret and X-Request-Id; replies are parsed with schemas. The outcome is `ok`, an
 * API error (status + code), or `unavailable` (network error, timeout, 5xx, unreadable body).
 */
import { internalSettingsSchema, type InternalSettings } from '@usher/contracts';
import { retryingGet } from '@usher/contracts/retry';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { BotMetrics } from './metrics.js';
import {
  accountSchema,
  bindReplySchema,
  createRequestReplySchema,
  pendingActionSchema,
  pendingCreatedSchema,
  redeemReplySchema,
  resetPasswordReplySchema,
  reviewReplySchema,
  searchReplySchema,
  seasonsReplySchema,
  type Account,
  type AdminMessageInput,
  type BindReply,
  type CreateRequestInput,
  type CreateRequestReply,
  type PendingAction,
  type PendingCreated,
  type RedeemReply,
  type ResetPasswordReply,
  type ReviewReply,
  type SearchReply,
  type SeasonsReply,
} from './api-schemas.js';

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; kind: 'error'; status: number; code: string; message: string; details: unknown }
  | { ok: false; kind: 'unavailable'; reason: string };

export type ApiFailure = Exclude<ApiResult<unknown>, { ok: true }>;

export interface ApiCalls {
  settings(): Promise<ApiResult<InternalSettings>>;
  bind(body: {
    messengerId: number;
    code: string;
    languageCode?: string;
  }): Promise<ApiResult<BindReply>>;
  lookup(body: { messengerId: number; languageCode?: string }): Promise<ApiResult<Account>>;
  redeem(body: {
    messengerId: number;
    code: string;
    languageCode?: string;
  }): Promise<ApiResult<RedeemReply>>;
  resetPassword(body: {
    messengerId: number;
    languageCode?: string;
  }): Promise<ApiResult<ResetPasswordReply>>;
  search(query: string): Promise<ApiResult<SearchReply>>;
  seasons(tmdbId: number): Promise<ApiResult<SeasonsReply>>;
  createRequest(body: CreateRequestInput): Promise<ApiResult<CreateRequestReply>>;
  approve(id: string, approverMessengerId: number): Promise<ApiResult<ReviewReply>>;
  reject(
    id: string,
    body: { approverMessengerId: number; reason: string; pendingActionId?: string },
  ): Promise<ApiResult<ReviewReply>>;
  recordAdminMessages(id: string, messages: AdminMessageInput[]): Promise<ApiResult<null>>;
  createPending(body: {
    kind: string;
    chatId: number;
    messengerUserId: number;
    payload: Record<string, unknown>;
    ttlSeconds: number;
  }): Promise<ApiResult<PendingCreated>>;
  getPending(id: string): Promise<ApiResult<PendingAction>>;
  findPending(key: {
    kind: string;
    chatId: number;
    messengerUserId: number;
  }): Promise<ApiResult<PendingAction>>;
  patchPending(
    id: string,
    body: { payload: Record<string, unknown>; ttlSeconds?: number },
  ): Promise<ApiResult<PendingAction>>;
  deletePending(id: string): Promise<ApiResult<null>>;
}

export interface ApiClient extends ApiCalls {
  /** The same calls, carrying this request id (`tg-<update_id>`, or the notify's id). */
  forRequest(requestId: string): ApiCalls;
}

export interface ApiClientOptions {
  baseUrl: string;
  secret: string;
  metrics?: BotMetrics;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Per-call timeouts in ms (tests shorten them). */
  timeouts?: { settings: number; other: number };
}

const PREFIX = '/api/v1';
const nullSchema = { safeParse: () => ({ success: true as const, data: null }) };

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? fetch;
  const timeouts = options.timeouts ?? { settings: 5000, other: 10_000 };

  async function call<T>(
    requestId: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    route: string,
    path: string,
    schema:
      { safeParse(value: unknown): { success: true; data: T } | { success: false } } | z.ZodType<T>,
    body?: unknown,
  ): Promise<ApiResult<T>> {
    const timeout = route === '/internal/settings' ? timeouts.settings : timeouts.other;
    const once = async (): Promise<{ result: ApiResult<T>; network: boolean }> => {
      let response: Response;
      try {
        response = await doFetch(`${options.baseUrl}${PREFIX}${path}`, {
          method,
          headers: {
            'x-internal-secret': options.secret,
            'x-request-id': requestId,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeout),
        });
      } catch (error) {
        // Network failure or timeout: "unavailable" (a GET is tried once more, below).
        const reason = error instanceof Error ? error.name : 'network';
        options.metrics?.apiCalls.inc({ route, status: 'network' });
        return { result: { ok: false, kind: 'unavailable', reason }, network: true };
      }
      options.metrics?.apiCalls.inc({ route, status: String(response.status) });
      return { result: await readReply(response, schema), network: false };
    };
    const { result } = await retryingGet(method, once, { shouldRetry: (o) => o.network });
    if (!result.ok) {
      const level = result.kind === 'unavailable' ? 'warn' : 'debug';
      options.logger?.[level](
        {
          route,
          requestId,
          ...(result.kind === 'error'
            ? { status: result.status, errorCode: result.code }
            : { reason: result.reason }),
        },
        'api call failed',
      );
    }
    return result;
  }

  function calls(requestId: string): ApiCalls {
    const enc = encodeURIComponent;
    return {
      settings: () =>
        call(requestId, 'GET', '/internal/settings', '/internal/settings', internalSettingsSchema),
      bind: (body) =>
        call(
          requestId,
          'POST',
          '/internal/messenger/bind',
          '/internal/messenger/bind',
          bindReplySchema,
          body,
        ),
      lookup: (body) =>
        call(
          requestId,
          'POST',
          '/internal/messenger/lookup',
          '/internal/messenger/lookup',
          accountSchema,
          body,
        ),
      redeem: (body) =>
        call(
          requestId,
          'POST',
          '/internal/messenger/redeem',
          '/internal/messenger/redeem',
          redeemReplySchema,
          body,
        ),
      resetPassword: (body) =>
        call(
          requestId,
          'POST',
          '/internal/messenger/reset-password',
          '/internal/messenger/reset-password',
          resetPasswordReplySchema,
          body,
        ),
      search: (query) =>
        call(
          requestId,
          'GET',
          '/internal/metadata/search',
          `/internal/metadata/search?query=${enc(query)}&type=multi`,
          searchReplySchema,
        ),
      seasons: (tmdbId) =>
        call(
          requestId,
          'GET',
          '/internal/metadata/tv/:tmdbId/seasons',
          `/internal/metadata/tv/${tmdbId}/seasons`,
          seasonsReplySchema,
        ),
      createRequest: (body) =>
        call(
          requestId,
          'POST',
          '/internal/media-requests',
          '/internal/media-requests',
          createRequestReplySchema,
          body,
        ),
      approve: (id, approverMessengerId) =>
        call(
          requestId,
          'POST',
          '/internal/media-requests/:id/approve',
          `/internal/media-requests/${enc(id)}/approve`,
          reviewReplySchema,
          { approverMessengerId },
        ),
      reject: (id, body) =>
        call(
          requestId,
          'POST',
          '/internal/media-requests/:id/reject',
          `/internal/media-requests/${enc(id)}/reject`,
          reviewReplySchema,
          body,
        ),
      recordAdminMessages: (id, messages) =>
        call(
          requestId,
          'POST',
          '/internal/media-requests/:id/admin-messages',
          `/internal/media-requests/${enc(id)}/admin-messages`,
          nullSchema,
          { messages },
        ),
      createPending: (body) =>
        call(
          requestId,
          'POST',
          '/internal/pending-actions',
          '/internal/pending-actions',
          pendingCreatedSchema,
          body,
        ),
      getPending: (id) =>
        call(
          requestId,
          'GET',
          '/internal/pending-actions/:id',
          `/internal/pending-actions/${enc(id)}`,
          pendingActionSchema,
        ),
      findPending: (key) =>
        call(
          requestId,
          'GET',
          '/internal/pending-actions',
          `/internal/pending-actions?kind=${enc(key.kind)}&chatId=${key.chatId}&messengerUserId=${key.messengerUserId}`,
          pendingActionSchema,
        ),
      patchPending: (id, body) =>
        call(
          requestId,
          'PATCH',
          '/internal/pending-actions/:id',
          `/internal/pending-actions/${enc(id)}`,
          pendingActionSchema,
          body,
        ),
      deletePending: (id) =>
        call(
          requestId,
          'DELETE',
          '/internal/pending-actions/:id',
          `/internal/pending-actions/${enc(id)}`,
          nullSchema,
        ),
    };
  }

  return { ...calls(`bot-${crypto.randomUUID()}`), forRequest: calls };
}

async function readReply<T>(
  response: Response,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
): Promise<ApiResult<T>> {
  const text = await response.text().catch(() => '');
  if (response.status >= 500) {
    // 5xx is "unavailable" for the bot, but the code is kept for the logs (e.g. 502 media server).
    return { ok: false, kind: 'unavailable', reason: `http ${response.status}` };
  }
  let body: unknown = null;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch (_error) {
      return { ok: false, kind: 'unavailable', reason: 'unreadable body' };
    }
  }
  if (response.status >= 400) {
    const error = (
      body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null
    )?.error;
    if (!error || typeof error.code !== 'string') {
      return {
        ok: false,
        kind: 'unavailable',
        reason: `http ${response.status} without error body`,
      };
    }
    return {
      ok: false,
      kind: 'error',
      status: response.status,
      code: error.code,
      message: typeof error.message === 'string' ? error.message : '',
      details: error.details,
    };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    return { ok: false, kind: 'unavailable', reason: 'reply does not match the contract' };
  return { ok: true, status: response.status, data: parsed.data };
}
