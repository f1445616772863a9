import type { Params } from './params.js';
import { int, str } from './params.js';
import type { TelegramState } from './state.js';
import { badRequest, forbidden, type TgChat, type TgUser } from './types.js';

export interface FakeTelegramSettings {
  /** How long a callback query may wait for its answer, in ms (Telegram: about 15 s). */
  callbackQueryTtlMs: number;
  /**
   * Hosts allowed as plain-http webhooks on any port; the real API demands https on
   * 443/80/88/8443.
   */
  insecureWebhookHosts: string[];
  /** Whether sendPhoto downloads URL photos like Telegram does, instead of trusting them. */
  fetchPhotos: boolean;
}

/** What every method handler gets: the shared state, the bot's identity and the clock. */
export interface MethodContext {
  state: TelegramState;
  bot: TgUser;
  settings: FakeTelegramSettings;
  /** Milliseconds since the epoch; injectable so tests can age callback queries. */
  now(): number;
  /** Aborted when the client drops the HTTP request (long polls must notice). */
  signal: AbortSignal;
}

export type MethodHandler = (ctx: MethodContext, params: Params) => unknown;

/** A result carrying the top-level `description` some methods add (setWebhook, deleteWebhook). */
export class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}

export const unixTime = (ctx: MethodContext) => Math.floor(ctx.now() / 1000);

function chatKind(chat: TgChat) {
  return chat.type === 'supergroup' ? 'supergroup chat' : `${chat.type} chat`;
}

/**
 * Resolves `chat_id` (an integer or `@username`) and applies the access rules the real API
 * enforces before any method runs: unknown chats, users who never started the bot, users who
 * blocked it, and groups the bot has left or was removed from.
 */
export function resolveChat(ctx: MethodContext, params: Params, name = 'chat_id'): TgChat {
  const raw = str(params, name);
  if (raw === undefined || raw === '') throw badRequest('chat_id is empty');
  let chat: TgChat | undefined;
  if (raw.startsWith('@')) {
    const username = raw.slice(1).toLowerCase();
    chat = [...ctx.state.chats.values()].find((c) => c.username?.toLowerCase() === username);
  } else {
    const id = int(params, name);
    if (id === undefined) throw badRequest('chat not found');
    chat = ctx.state.chats.get(id);
    if (!chat && id > 0 && ctx.state.users.has(id)) {
      throw forbidden("bot can't initiate conversation with a user");
    }
  }
  if (!chat) throw badRequest('chat not found');
  if (chat.type === 'private' && ctx.state.blocked.has(chat.id)) {
    throw forbidden('bot was blocked by the user');
  }
  const botStatus = ctx.state.memberStatus(chat.id, ctx.bot.id);
  if (chat.type !== 'private' && botStatus === 'kicked') {
    throw forbidden(`bot was kicked from the ${chatKind(chat)}`);
  }
  if (chat.type !== 'private' && botStatus === 'left') {
    throw forbidden(`bot is not a member of the ${chatKind(chat)}`);
  }
  return chat;
}
