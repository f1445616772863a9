import type http from 'node:http';
import { parseBody } from '../fake-server/body.js';
import { startFakeHttpServer } from '../fake-server/http-server.js';
import { sendJson } from '../fake-server/reply.js';
import {
  Described,
  type FakeTelegramSettings,
  type MethodContext,
  type MethodHandler,
} from './context.js';
import { handleControl } from './control.js';
import { messageMethods } from './methods-messages.js';
import { miscMethods, type BotProfile } from './methods-misc.js';
import { UpdateHub } from './methods-updates.js';
import type { Params } from './params.js';
import { TelegramState } from './state.js';
import { TelegramApiError, type TgUpdate } from './types.js';
import type { UpdateDraft } from './updates.js';
import type { FakeTelegram, FakeTelegramOptions, InjectedError, TelegramCall } from './fake.js';
export type { FakeTelegram, FakeTelegramOptions, InjectedError, TelegramCall };

const DEFAULT_TOKEN = '7000000001:AAFakeTokenForUsherTestsOnly_1234567';

function botProfile(token: string, bot: Partial<BotProfile> = {}): BotProfile {
  return {
    id: Number(token.split(':')[0]),
    is_bot: true,
    first_name: 'Usher Test Bot',
    username: 'usher_test_bot',
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    ...bot,
  };
}

/** Starts a fake Bot API on 127.0.0.1 that answers `/bot<token>/<method>` like api.telegram.org. */
export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = options.token ?? DEFAULT_TOKEN;
  const bot = botProfile(token, options.bot);
  const settings: FakeTelegramSettings = {
    callbackQueryTtlMs: options.callbackQueryTtlMs ?? 15_000,
    insecureWebhookHosts: options.insecureWebhookHosts ?? ['127.0.0.1', 'localhost', '[::1]'],
    fetchPhotos: options.fetchPhotos ?? false,
  };
  const now = options.now ?? Date.now;
  const state = new TelegramState();
  const calls: TelegramCall[] = [];
  const injected = new Map<string, InjectedError[]>();
  let flood: { retryAfter: number; methods?: Set<string> } | null = null;
  const limiter = options.rateLimits ? new FloodControl(options.rateLimits, now) : null;

  const hub = new UpdateHub(state, async (method, params) => {
    await invoke(method, params, new AbortController().signal, 'webhook-reply');
  });
  const handlers: Record<string, MethodHandler> = {
    ...miscMethods(bot),
    ...messageMethods,
    ...hub.methods,
  };
  const byLowerName = new Map(Object.keys(handlers).map((name) => [name.toLowerCase(), name]));

  function injectedFor(method: string): TelegramApiError | null {
    if (flood && (!flood.methods || flood.methods.has(method))) {
      return new TelegramApiError(429, `Too Many Requests: retry after ${flood.retryAfter}`, {
        retry_after: flood.retryAfter,
      });
    }
    const queue = injected.get(method);
    const next = queue?.shift();
    if (!next) return null;
    return new TelegramApiError(next.error_code, next.description, next.parameters);
  }

  async function invoke(
    method: string,
    params: Params,
    signal: AbortSignal,
    via: TelegramCall['via'],
  ) {
    const call: TelegramCall = { method, params, at: new Date(now()), status: 200, via };
    calls.push(call);
    try {
      const error = injectedFor(method) ?? limiter?.check(method, params) ?? null;
      if (error) throw error;
      const ctx: MethodContext = { state, bot, settings, now, signal };
      const value = await handlers[method]!(ctx, params);
      call.result = value instanceof Described ? value.result : value;
      return { call, value };
    } catch (error) {
      if (!(error instanceof TelegramApiError)) throw error;
      call.status = error.status;
      call.error = error.toBody();
      return { call, value: error };
    }
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/__fake/')) return handleControl(fake, req, res, url);
    const match = /^\/bot([^/]+)\/([A-Za-z_]*)$/.exec(url.pathname);
    const notFound = new TelegramApiError(404, 'Not Found');
    if (!match) return sendJson(res, 404, notFound.toBody());
    const method = byLowerName.get(match[2]!.toLowerCase());
    if (decodeURIComponent(match[1]!) !== token) {
      calls.push({
        method: method ?? match[2]!,
        params: {},
        at: new Date(now()),
        status: 401,
        via: 'http',
      });
      return sendJson(res, 401, new TelegramApiError(401, 'Unauthorized').toBody());
    }
    if (!method) return sendJson(res, 404, notFound.toBody());
    const body = await parseBody(req);
    if (body.invalidJson) {
      return sendJson(
        res,
        400,
        new TelegramApiError(400, "Bad Request: can't parse JSON").toBody(),
      );
    }
    const params: Params = Object.fromEntries(url.searchParams);
    if (body.value && typeof body.value === 'object') Object.assign(params, body.value);
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    const { value } = await invoke(method, params, aborted.signal, 'http');
    if (res.destroyed) return;
    if (value instanceof TelegramApiError) return sendJson(res, value.status, value.toBody());
    if (value instanceof Described) {
      return sendJson(res, 200, { ok: true, result: value.result, description: value.description });
    }
    sendJson(res, 200, { ok: true, result: value });
  }

  function materialize(draft: UpdateDraft): TgUpdate {
    const update = structuredClone(draft) as TgUpdate;
    update.update_id = draft.update_id ?? state.nextUpdateId++;
    if (update.update_id >= state.nextUpdateId) state.nextUpdateId = update.update_id + 1;
    const message = update.message ?? update.edited_message;
    if (message) {
      if (!state.chats.has(message.chat.id)) state.seedChat(message.chat);
      const from = message.from;
      if (from && from.id !== bot.id) {
        state.seedUser(from);
        if (message.chat.type !== 'private' && !state.memberStatus(message.chat.id, from.id)) {
          state.setMember(message.chat.id, from.id, 'member');
        }
      }
      for (const member of message.new_chat_members ?? []) {
        if (member.id !== bot.id) state.seedUser(member);
        state.setMember(message.chat.id, member.id, 'member');
      }
      if (!message.message_id) message.message_id = state.allocateMessageId(message.chat.id);
      if (update.message) state.storeMessage(message, from?.id === bot.id);
    }
    const query = update.callback_query;
    if (query) {
      state.seedUser(query.from);
      state.callbackQueries.set(query.id, { id: query.id, createdAt: now(), answered: false });
    }
    return update;
  }

  const server = await startFakeHttpServer(handle, {
    defaultFailStatus: 502,
    failReply: (res, status) =>
      sendJson(
        res,
        status,
        new TelegramApiError(
          status,
          status === 502 ? 'Bad Gateway' : 'Internal Server Error',
        ).toBody(),
      ),
  });

  const fake: FakeTelegram = {
    url: server.url,
    token,
    bot,
    state,
    calls,
    faults: server.faults,
    callsTo: (method) => calls.filter((c) => c.method.toLowerCase() === method.toLowerCase()),
    seedChat: (chat) => state.seedChat(chat),
    seedUser: (user) => state.seedUser(user),
    setMember(chatId, user, status) {
      if (typeof user !== 'number') state.seedUser(user);
      state.setMember(chatId, typeof user === 'number' ? user : user.id, status);
    },
    block: (userId) => void state.blocked.add(userId),
    unblock: (userId) => void state.blocked.delete(userId),
    failNext(method, error, times = 1) {
      const name = byLowerName.get(method.toLowerCase()) ?? method;
      injected.set(name, [
        ...(injected.get(name) ?? []),
        ...Array<InjectedError>(times).fill(error),
      ]);
    },
    flood(retryAfter, methods) {
      flood = { retryAfter, methods: methods ? new Set(methods) : undefined };
    },
    stopFlood: () => void (flood = null),
    queueUpdate(draft) {
      const update = materialize(draft);
      hub.enqueue(update);
      return update;
    },
    async pushUpdate(draft) {
      if (!state.webhook) throw new Error('pushUpdate: no webhook is set (call setWebhook first)');
      const update = fake.queueUpdate(draft);
      return { update, deliveries: await hub.deliverPending() };
    },
    deliverPending: () => hub.deliverPending(),
    messages: (chatId) => state.messagesIn(chatId),
    resetCalls: () => void calls.splice(0),
    reset() {
      calls.splice(0);
      injected.clear();
      flood = null;
      hub.close();
      state.clear();
    },
    async close() {
      hub.close();
      await server.close();
    },
  };
  return fake;
}

/** Methods that send a message, counted by the flood control. */
const SENDING = new Set([
  'sendMessage',
  'sendPhoto',
  'sendDocument',
  'sendMediaGroup',
  'copyMessage',
  'forwardMessage',
]);

/**
 * Sliding one-second windows of sent messages, across all chats and per chat. A message over a
 * limit is refused with 429 and does not count; `retry_after` is the whole seconds until the
 * oldest message of the full window leaves it (at least 1), as Telegram rounds up.
 */
class FloodControl {
  private readonly all: number[] = [];
  private readonly byChat = new Map<string, number[]>();

  constructor(
    private readonly limits: { globalPerSecond?: number; perChatPerSecond?: number },
    private readonly now: () => number,
  ) {}

  check(method: string, params: Params): TelegramApiError | null {
    if (!SENDING.has(method)) return null;
    const at = this.now();
    const chat = String(params.chat_id ?? '');
    const inWindow = (list: number[]) => {
      while (list.length > 0 && list[0]! <= at - 1000) list.shift();
      return list;
    };
    const all = inWindow(this.all);
    const mine = inWindow(this.byChat.get(chat) ?? []);
    const over = (list: number[], limit: number | undefined) =>
      limit !== undefined && list.length >= limit;
    if (over(all, this.limits.globalPerSecond) || over(mine, this.limits.perChatPerSecond)) {
      const oldest = Math.min(
        over(all, this.limits.globalPerSecond) ? all[0]! : Infinity,
        over(mine, this.limits.perChatPerSecond) ? mine[0]! : Infinity,
      );
      const retryAfter = Math.max(1, Math.ceil((oldest + 1000 - at) / 1000));
      return new TelegramApiError(429, `Too Many Requests: retry after ${retryAfter}`, {
        retry_after: retryAfter,
      });
    }
    all.push(at);
    mine.push(at);
    this.byChat.set(chat, mine);
    return null;
  }
}
