// The fake Bot API's public shape (what `startFakeTelegram` returns and takes). Apart from
// server.ts so the control routes (control.ts), which server.ts mounts, can name it.
import type { FaultSwitches } from '../fake-server/http-server.js';
import type { FakeTelegramSettings } from './context.js';
import type { BotProfile } from './methods-misc.js';
import type { WebhookDelivery } from './methods-updates.js';
import type { Params } from './params.js';
import type { TelegramState } from './state.js';
import type { TgChat, TgMemberStatus, TgMessage, TgUpdate, TgUser } from './types.js';
import type { UpdateDraft } from './updates.js';

export interface TelegramCall {
  /** Canonical method name (the API accepts any letter case). */
  method: string;
  params: Params;
  at: Date;
  /** HTTP status answered; 200 on success. */
  status: number;
  result?: unknown;
  error?: { error_code: number; description: string; parameters?: Record<string, unknown> };
  /** `webhook-reply` when the method came back in a webhook response body. */
  via: 'http' | 'webhook-reply';
}

export interface InjectedError {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number };
}

export interface FakeTelegramOptions extends Partial<FakeTelegramSettings> {
  /** The only token the fake accepts; others get 401. */
  token?: string;
  bot?: Partial<BotProfile>;
  /** Clock in ms, for ageing callback queries; defaults to Date.now. */
  now?: () => number;
  /**
   * Telegram's flood control for sending methods (core.telegram.org/bots/faq, "My bot is hitting
   * limits"): more than `globalPerSecond` messages in any second across all chats, or more than
   * `perChatPerSecond` to one chat, answers 429 `Too Many Requests: retry after N` with
   * `parameters.retry_after`, and the message is not sent. Off unless given; Telegram's own
   * figures are about 30 and 1.
   */
  rateLimits?: { globalPerSecond?: number; perChatPerSecond?: number };
}

export interface FakeTelegram {
  /** Use as telegraf's `telegram.apiRoot` (MESSENGER_API_ROOT). */
  readonly url: string;
  readonly token: string;
  readonly bot: BotProfile;
  readonly state: TelegramState;
  readonly calls: TelegramCall[];
  readonly faults: FaultSwitches;
  callsTo(method: string): TelegramCall[];
  seedChat(chat: TgChat): void;
  seedUser(user: TgUser): void;
  setMember(chatId: number, user: TgUser | number, status: TgMemberStatus): void;
  block(userId: number): void;
  unblock(userId: number): void;
  /** The next `times` calls of `method` fail with this error. */
  failNext(method: string, error: InjectedError, times?: number): void;
  /** Every call (or calls of `methods`) answers 429 with `retry_after` until stopFlood(). */
  flood(retryAfterSeconds: number, methods?: string[]): void;
  stopFlood(): void;
  /** Queues an update for getUpdates (or for a later deliverPending()). */
  queueUpdate(draft: UpdateDraft): TgUpdate;
  /** Queues an update and delivers everything pending to the registered webhook. */
  pushUpdate(draft: UpdateDraft): Promise<{ update: TgUpdate; deliveries: WebhookDelivery[] }>;
  deliverPending(): Promise<WebhookDelivery[]>;
  /** Messages that currently exist in a chat, oldest first. */
  messages(chatId: number): TgMessage[];
  resetCalls(): void;
  /** Forgets everything except the bot's identity. */
  reset(): void;
  close(): Promise<void>;
}
