import type { TgBotCommand, TgChat, TgMemberStatus, TgMessage, TgUpdate, TgUser } from './types.js';

export interface WebhookConfig {
  url: string;
  secretToken?: string;
  allowedUpdates?: string[];
  maxConnections: number;
  lastErrorDate?: number;
  lastErrorMessage?: string;
}

export interface StoredMessage {
  message: TgMessage;
  /** Whether the bot sent it (only those can be edited by the bot). */
  sentByBot: boolean;
  deleted: boolean;
}

export interface CallbackQueryRecord {
  id: string;
  createdAt: number;
  answered: boolean;
  answer?: Record<string, unknown>;
}

/** Update types Telegram sends when `allowed_updates` was never set. */
export const DEFAULT_ALLOWED_UPDATES = [
  'message',
  'edited_message',
  'channel_post',
  'edited_channel_post',
  'business_connection',
  'business_message',
  'edited_business_message',
  'deleted_business_messages',
  'inline_query',
  'chosen_inline_result',
  'callback_query',
  'shipping_query',
  'pre_checkout_query',
  'purchased_paid_media',
  'poll',
  'poll_answer',
  'my_chat_member',
  'chat_join_request',
  'chat_boost',
  'removed_chat_boost',
];

/** Everything the fake Bot API knows; tests may read it directly. */
export class TelegramState {
  readonly chats = new Map<number, TgChat>();
  readonly users = new Map<number, TgUser>();
  /** Users who pressed Stop: sends to them answer 403. */
  readonly blocked = new Set<number>();
  /** chatId → userId → status. */
  readonly members = new Map<number, Map<number, TgMemberStatus>>();
  /** chatId → messageId → message. Message ids are per chat, as in private chats and groups. */
  readonly messages = new Map<number, Map<number, StoredMessage>>();
  readonly lastMessageId = new Map<number, number>();
  /** `${scopeKey}|${language}` → commands. */
  readonly commands = new Map<string, TgBotCommand[]>();
  readonly callbackQueries = new Map<string, CallbackQueryRecord>();
  /** Updates not yet confirmed by getUpdates or accepted by the webhook. */
  pending: TgUpdate[] = [];
  nextUpdateId = 100_000_001;
  webhook: WebhookConfig | null = null;
  allowedUpdates: string[] = DEFAULT_ALLOWED_UPDATES;

  seedChat(chat: TgChat) {
    this.chats.set(chat.id, chat);
  }

  seedUser(user: TgUser) {
    this.users.set(user.id, user);
  }

  setMember(chatId: number, userId: number, status: TgMemberStatus) {
    if (!this.members.has(chatId)) this.members.set(chatId, new Map());
    this.members.get(chatId)!.set(userId, status);
  }

  memberStatus(chatId: number, userId: number): TgMemberStatus | undefined {
    return this.members.get(chatId)?.get(userId);
  }

  allocateMessageId(chatId: number): number {
    const next = (this.lastMessageId.get(chatId) ?? 0) + 1;
    this.lastMessageId.set(chatId, next);
    return next;
  }

  storeMessage(message: TgMessage, sentByBot: boolean): StoredMessage {
    const chatId = message.chat.id;
    if (!this.messages.has(chatId)) this.messages.set(chatId, new Map());
    const stored: StoredMessage = { message, sentByBot, deleted: false };
    this.messages.get(chatId)!.set(message.message_id, stored);
    if (message.message_id > (this.lastMessageId.get(chatId) ?? 0)) {
      this.lastMessageId.set(chatId, message.message_id);
    }
    return stored;
  }

  findMessage(chatId: number, messageId: number): StoredMessage | undefined {
    const stored = this.messages.get(chatId)?.get(messageId);
    return stored && !stored.deleted ? stored : undefined;
  }

  /** The messages of a chat that still exist, oldest first. */
  messagesIn(chatId: number): TgMessage[] {
    return [...(this.messages.get(chatId)?.values() ?? [])]
      .filter((stored) => !stored.deleted)
      .map((stored) => stored.message)
      .sort((a, b) => a.message_id - b.message_id);
  }

  commandKey(scope: Record<string, unknown>, language: string) {
    const type = String(scope.type ?? 'default');
    const chat = scope.chat_id === undefined ? '' : `:${String(scope.chat_id)}`;
    const user = scope.user_id === undefined ? '' : `:${String(scope.user_id)}`;
    return `${type}${chat}${user}|${language}`;
  }

  clear() {
    this.chats.clear();
    this.users.clear();
    this.blocked.clear();
    this.members.clear();
    this.messages.clear();
    this.lastMessageId.clear();
    this.commands.clear();
    this.callbackQueries.clear();
    this.pending = [];
    this.webhook = null;
    this.allowedUpdates = DEFAULT_ALLOWED_UPDATES;
  }
}

/** The update type is the one optional field besides `update_id`. */
export function updateType(update: TgUpdate): string {
  return Object.keys(update).find((key) => key !== 'update_id') ?? 'unknown';
}
