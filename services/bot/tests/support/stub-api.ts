/**
 * A stub of the API's internal routes (40-bot.md §12 "Stub API"): a Hono app on a real port,
 * built from the contract schemas, with in-memory accounts, requests and pending actions that
 * behave like the real ones (replace-by-key, TTL, delete = claim). It checks X-Internal-Secret
 * and validates every body; a violation is recorded and fails the test through `violations`.
 */
import { randomUUID } from 'node:crypto';
import { serve, type ServerType } from '@hono/node-server';
import {
  adminMessagesBodySchema,
  createPendingActionBodySchema,
  internalApproveBodySchema,
  internalCreateRequestBodySchema,
  internalRejectBodySchema,
  messengerBindSchema,
  messengerLookupSchema,
  messengerRedeemSchema,
  messengerResetPasswordSchema,
  pendingActionKeyQuerySchema,
  updatePendingActionBodySchema,
  type InternalSettings,
  type MetadataResult,
} from '@usher/contracts';
import { Hono, type Context } from 'hono';
import type { z } from 'zod';

export interface StubAccount {
  userId: string;
  username: string;
  email: string | null;
  isActive: boolean;
  expiresAt: string | null;
  isExpired: boolean;
  mediaLinked: boolean;
}

export interface StubRequest {
  id: string;
  type: 'MOVIE' | 'TV';
  tmdbId: number;
  season: number;
  name: string;
  year: number | null;
  posterPath: string | null;
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'INGESTED';
  reviewer: string | null;
  rejectReason: string | null;
  requester: string;
}

interface Pending {
  id: string;
  kind: string;
  chatId: number;
  messengerUserId: number;
  payload: Record<string, unknown>;
  expiresAt: number;
}

export interface StubCall {
  method: string;
  path: string;
  body: unknown;
  requestId: string | undefined;
}

type Handler = (c: Context) => Response | Promise<Response>;

const ISO = (ms: number) => new Date(ms).toISOString();

export class StubApi {
  readonly calls: StubCall[] = [];
  readonly violations: string[] = [];
  settings: InternalSettings = {
    adminChatId: null,
    groupChatId: null,
    approverIds: [],
    approverFallback: 'none',
    welcomeTemplate: null,
    groupLink: null,
    timezone: 'UTC',
    tmdbImageBase: 'https://image.tmdb.org/t/p',
    webUrl: 'https://usher.example.org',
    siteName: 'Usher',
  };
  /** messengerId → account. */
  readonly accounts = new Map<number, StubAccount>();
  /** bind code → account (not yet bound). */
  readonly bindCodes = new Map<string, StubAccount>();
  readonly redeemCodes = new Map<
    string,
    { days: number; state: 'ok' | 'expired' | 'exhausted'; usedBy: Set<number> }
  >();
  readonly requests = new Map<string, StubRequest>();
  readonly pending = new Map<string, Pending>();
  searchResults: MetadataResult[] = [];
  seasons: number[] = [1, 2];
  inLibrary = new Set<number>();
  approvers = new Set<number>();
  /** Routes that answer something else (first match wins). */
  readonly overrides: { method: string; path: RegExp; handler: Handler }[] = [];
  /** While true every route answers 503 (the API is down). */
  down = false;
  now = () => Date.now();
  url = '';
  private server: ServerType | null = null;

  constructor(readonly secret: string) {}

  override(method: string, path: RegExp, handler: Handler) {
    this.overrides.unshift({ method, path, handler });
  }

  callsTo(method: string, pathPrefix: string) {
    return this.calls.filter((c) => c.method === method && c.path.startsWith(pathPrefix));
  }

  addAccount(messengerId: number, patch: Partial<StubAccount> = {}): StubAccount {
    const account: StubAccount = {
      userId: randomUUID(),
      username: `member${messengerId}`,
      email: `member${messengerId}@example.org`,
      isActive: true,
      expiresAt: '2027-01-01T00:00:00.000Z',
      isExpired: false,
      mediaLinked: true,
      ...patch,
    };
    this.accounts.set(messengerId, account);
    return account;
  }

  addRequest(patch: Partial<StubRequest> = {}): StubRequest {
    const request: StubRequest = {
      id: randomUUID(),
      type: 'MOVIE',
      tmdbId: 438631,
      season: 0,
      name: 'Dune',
      year: 2021,
      posterPath: '/dune.jpg',
      status: 'PENDING',
      reviewer: null,
      rejectReason: null,
      requester: 'alice',
      ...patch,
    };
    this.requests.set(request.id, request);
    return request;
  }

  livePending(kind?: string) {
    return [...this.pending.values()].filter(
      (p) => p.expiresAt > this.now() && (!kind || p.kind === kind),
    );
  }

  adminRequest(r: StubRequest) {
    const reviewed = r.status !== 'PENDING';
    return {
      id: r.id,
      type: r.type,
      tmdbId: r.tmdbId,
      season: r.season,
      name: r.name,
      year: r.year,
      posterPath: r.posterPath,
      note: '',
      status: r.status,
      reviewSource: reviewed ? 'manual' : null,
      reviewedAt: reviewed ? ISO(this.now()) : null,
      reviewer: r.reviewer ? { username: r.reviewer } : null,
      rejectReason: r.rejectReason,
      retryFromId: null,
      ingestProgress: null,
      ingestedAt: r.status === 'INGESTED' ? ISO(this.now()) : null,
      createdAt: ISO(this.now()),
      requester: { id: randomUUID(), username: r.requester },
      automation: { dispatchedAt: null, ref: null, error: null, candidatesSearchedAt: null },
    };
  }

  private app() {
    const app = new Hono();
    const error = (c: Context, status: number, code: string, details?: unknown) =>
      c.json(
        { error: { code, message: code, requestId: 'stub', ...(details ? { details } : {}) } },
        status as 400,
      );
    const body = async <T>(c: Context, schema: z.ZodType<T>): Promise<T | Response> => {
      const raw: unknown = await c.req.json().catch(() => undefined);
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        this.violations.push(`${c.req.method} ${c.req.path}: ${parsed.error.message}`);
        return error(c, 400, 'VALIDATION_FAILED');
      }
      return parsed.data;
    };
    const account = (c: Context, messengerId: number) => {
      const found = this.accounts.get(messengerId);
      return found ? found : error(c, 404, 'MESSENGER_NOT_BOUND');
    };
    const pendingView = (p: Pending) => ({
      id: p.id,
      kind: p.kind,
      chatId: p.chatId,
      messengerUserId: p.messengerUserId,
      payload: p.payload,
      expiresAt: ISO(p.expiresAt),
    });
    const live = (id: string) => {
      const p = this.pending.get(id);
      return p && p.expiresAt > this.now() ? p : undefined;
    };

    app.use('*', async (c, next) => {
      let parsedBody: unknown = undefined;
      if (c.req.method !== 'GET' && c.req.method !== 'DELETE') {
        parsedBody = await c.req.raw
          .clone()
          .json()
          .catch(() => undefined);
      }
      this.calls.push({
        method: c.req.method,
        path: c.req.path + (c.req.url.includes('?') ? `?${c.req.url.split('?')[1]}` : ''),
        body: parsedBody,
        requestId: c.req.header('x-request-id'),
      });
      if (c.req.header('x-internal-secret') !== this.secret) {
        this.violations.push(`${c.req.method} ${c.req.path}: missing or wrong X-Internal-Secret`);
        return error(c, 401, 'INTERNAL_AUTH_FAILED');
      }
      if (this.down) return error(c, 503, 'SERVICE_UNAVAILABLE');
      const override = this.overrides.find(
        (o) => o.method === c.req.method && o.path.test(c.req.path),
      );
      if (override) return override.handler(c);
      await next();
    });

    const P = '/api/v1/internal';
    app.get(`${P}/settings`, (c) => c.json(this.settings));
    app.post(`${P}/messenger/bind`, async (c) => {
      const b = await body(c, messengerBindSchema);
      if (b instanceof Response) return b;
      const target = this.bindCodes.get(b.code);
      if (!target) return error(c, 422, 'BIND_CODE_INVALID');
      if (this.accounts.has(b.messengerId)) return error(c, 409, 'MESSENGER_ID_IN_USE');
      this.bindCodes.delete(b.code);
      this.accounts.set(b.messengerId, target);
      return c.json({ userId: target.userId, username: target.username });
    });
    app.post(`${P}/messenger/lookup`, async (c) => {
      const b = await body(c, messengerLookupSchema);
      if (b instanceof Response) return b;
      const a = account(c, b.messengerId);
      if (a instanceof Response) return a;
      return c.json({
        userId: a.userId,
        username: a.username,
        email: a.email,
        role: 'user',
        isActive: a.isActive,
        expiresAt: a.expiresAt,
        isExpired: a.isExpired,
        media: { linked: a.mediaLinked, state: a.mediaLinked ? 'enabled' : 'unlinked' },
      });
    });
    app.post(`${P}/messenger/redeem`, async (c) => {
      const b = await body(c, messengerRedeemSchema);
      if (b instanceof Response) return b;
      const a = account(c, b.messengerId);
      if (a instanceof Response) return a;
      const code = this.redeemCodes.get(b.code);
      if (!code) return error(c, 422, 'REDEEM_CODE_INVALID', { reason: 'not_found' });
      if (code.state !== 'ok') return error(c, 422, 'REDEEM_CODE_INVALID', { reason: code.state });
      if (code.usedBy.has(b.messengerId)) return error(c, 409, 'REDEEM_CODE_ALREADY_USED');
      code.usedBy.add(b.messengerId);
      const previous = a.expiresAt;
      a.expiresAt = '2027-03-02T08:30:00.000Z';
      return c.json({
        days: code.days,
        previousExpiresAt: previous,
        expiresAt: a.expiresAt,
        mediaSync: 'applied',
      });
    });
    app.post(`${P}/messenger/reset-password`, async (c) => {
      const b = await body(c, messengerResetPasswordSchema);
      if (b instanceof Response) return b;
      const a = account(c, b.messengerId);
      if (a instanceof Response) return a;
      return c.json({ username: a.username, password: 'Kx7mPq2RtW9vZb4NcH3s' });
    });
    app.get(`${P}/metadata/search`, (c) =>
      c.json({ data: this.searchResults, total: this.searchResults.length, page: 1, pageSize: 20 }),
    );
    app.get(`${P}/metadata/tv/:tmdbId/seasons`, (c) =>
      c.json({
        tmdbId: Number(c.req.param('tmdbId')),
        name: 'Series',
        status: 'Returning Series',
        seasons: this.seasons.map((n) => ({
          seasonNumber: n,
          name: `Season ${n}`,
          episodeCount: 8,
          airDate: null,
        })),
      }),
    );
    app.post(`${P}/media-requests`, async (c) => {
      const b = await body(c, internalCreateRequestBodySchema);
      if (b instanceof Response) return b;
      const a = account(c, b.messengerId);
      if (a instanceof Response) return a;
      if (!a.mediaLinked) return error(c, 422, 'MEDIA_ACCOUNT_UNLINKED');
      if (this.inLibrary.has(b.tmdbId) && !b.confirmExisting) {
        // The real API's shape (modules/requests/library.ts): a structured summary plus an
        // English `message` the bot must not show to members.
        const summary =
          b.type === 'MOVIE'
            ? { matchType: 'movie', seasons: [], episodeCount: 0 }
            : b.season > 0
              ? { matchType: 'season', seasons: [1, 2], episodeCount: 8 }
              : { matchType: 'series', seasons: [1, 2], episodeCount: 16 };
        return error(c, 409, 'ALREADY_IN_LIBRARY', {
          summary: { ...summary, mediaItemId: 'x', message: 'Already in the library (English)' },
        });
      }
      const existing = [...this.requests.values()].find(
        (r) => r.tmdbId === b.tmdbId && r.season === b.season && r.status !== 'REJECTED',
      );
      if (existing)
        return error(c, 409, 'REQUEST_EXISTS', { status: existing.status, requestId: existing.id });
      const r = this.addRequest({
        type: b.type,
        tmdbId: b.tmdbId,
        season: b.season,
        name: b.name,
        year: b.year ?? null,
        posterPath: b.posterPath ?? null,
        requester: a.username,
      });
      const { requester: _r, automation: _a, ...view } = this.adminRequest(r);
      return c.json({ outcome: 'created', request: view }, 201);
    });
    const review = async (c: Context, kind: 'approve' | 'reject') => {
      const b =
        kind === 'approve'
          ? await body(c, internalApproveBodySchema)
          : await body(c, internalRejectBodySchema);
      if (b instanceof Response) return b;
      const r = this.requests.get(c.req.param('id') ?? '');
      if (!r) return error(c, 404, 'MEDIA_REQUEST_NOT_FOUND');
      if (this.approvers.size > 0 && !this.approvers.has(b.approverMessengerId)) {
        return error(c, 403, 'NOT_AN_APPROVER');
      }
      const reviewer =
        this.accounts.get(b.approverMessengerId)?.username ?? `messenger:${b.approverMessengerId}`;
      if (kind === 'approve') {
        if (r.status === 'REJECTED')
          return error(c, 409, 'REQUEST_STATE_CHANGED', { status: 'REJECTED' });
        const changed = r.status === 'PENDING';
        if (changed) Object.assign(r, { status: 'APPROVED', reviewer });
        return c.json({ request: this.adminRequest(r), changed });
      }
      const rb = b as z.infer<typeof internalRejectBodySchema>;
      if (r.status === 'APPROVED' || r.status === 'INGESTED') {
        return error(c, 409, 'REQUEST_STATE_CHANGED', { status: r.status });
      }
      if (rb.pendingActionId) this.pending.delete(rb.pendingActionId);
      const changed = r.status === 'PENDING';
      if (changed) Object.assign(r, { status: 'REJECTED', reviewer, rejectReason: rb.reason });
      return c.json({ request: this.adminRequest(r), changed });
    };
    app.post(`${P}/media-requests/:id/approve`, (c) => review(c, 'approve'));
    app.post(`${P}/media-requests/:id/reject`, (c) => review(c, 'reject'));
    app.post(`${P}/media-requests/:id/admin-messages`, async (c) => {
      const b = await body(c, adminMessagesBodySchema);
      if (b instanceof Response) return b;
      return c.body(null, 204);
    });
    app.post(`${P}/pending-actions`, async (c) => {
      const b = await body(c, createPendingActionBodySchema);
      if (b instanceof Response) return b;
      for (const [id, p] of this.pending) {
        if (p.kind === b.kind && p.chatId === b.chatId && p.messengerUserId === b.messengerUserId)
          this.pending.delete(id);
      }
      const p: Pending = {
        id: randomUUID(),
        kind: b.kind,
        chatId: b.chatId,
        messengerUserId: b.messengerUserId,
        payload: b.payload,
        expiresAt: this.now() + b.ttlSeconds * 1000,
      };
      this.pending.set(p.id, p);
      return c.json({ id: p.id, expiresAt: ISO(p.expiresAt) }, 201);
    });
    app.get(`${P}/pending-actions`, (c) => {
      const q = pendingActionKeyQuerySchema.safeParse(c.req.query());
      if (!q.success) {
        this.violations.push(`GET pending-actions query: ${q.error.message}`);
        return error(c, 400, 'VALIDATION_FAILED');
      }
      const p = this.livePending(q.data.kind).find(
        (x) => x.chatId === q.data.chatId && x.messengerUserId === q.data.messengerUserId,
      );
      return p ? c.json(pendingView(p)) : error(c, 404, 'PENDING_ACTION_NOT_FOUND');
    });
    app.get(`${P}/pending-actions/:id`, (c) => {
      const p = live(c.req.param('id'));
      return p ? c.json(pendingView(p)) : error(c, 404, 'PENDING_ACTION_NOT_FOUND');
    });
    app.patch(`${P}/pending-actions/:id`, async (c) => {
      const b = await body(c, updatePendingActionBodySchema);
      if (b instanceof Response) return b;
      const p = live(c.req.param('id'));
      if (!p) return error(c, 404, 'PENDING_ACTION_NOT_FOUND');
      p.payload = b.payload;
      if (b.ttlSeconds) p.expiresAt = this.now() + b.ttlSeconds * 1000;
      return c.json(pendingView(p));
    });
    app.delete(`${P}/pending-actions/:id`, (c) => {
      const p = live(c.req.param('id'));
      if (!p) return error(c, 404, 'PENDING_ACTION_NOT_FOUND');
      this.pending.delete(p.id);
      return c.body(null, 204);
    });
    app.notFound((c) => error(c, 404, 'NOT_FOUND'));
    return app;
  }

  async start(): Promise<this> {
    const app = this.app();
    await new Promise<void>((resolve) => {
      this.server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
        this.url = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
    return this;
  }

  async close() {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
