// Bot API object shapes, limited to the fields the fake produces.
// Names follow core.telegram.org/bots/api.

export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export type TgChatType = 'private' | 'group' | 'supergroup' | 'channel';

export interface TgChat {
  id: number;
  type: TgChatType;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

export interface TgMessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
}

export interface TgInlineButton {
  text: string;
  callback_data?: string;
  url?: string;
  [other: string]: unknown;
}

export interface TgInlineKeyboard {
  inline_keyboard: TgInlineButton[][];
}

export interface TgPhotoSize {
  file_id: string;
  file_unique_id: string;
  width: number;
  height: number;
  file_size: number;
}

export interface TgMessage {
  message_id: number;
  from?: TgUser;
  chat: TgChat;
  date: number;
  edit_date?: number;
  text?: string;
  entities?: TgMessageEntity[];
  caption?: string;
  caption_entities?: TgMessageEntity[];
  photo?: TgPhotoSize[];
  reply_markup?: TgInlineKeyboard;
  reply_to_message?: TgMessage;
  link_preview_options?: Record<string, unknown>;
  new_chat_members?: TgUser[];
  [other: string]: unknown;
}

export interface TgCallbackQuery {
  id: string;
  from: TgUser;
  message?: TgMessage;
  chat_instance: string;
  data?: string;
}

export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  edited_message?: TgMessage;
  callback_query?: TgCallbackQuery;
  my_chat_member?: Record<string, unknown>;
  chat_member?: Record<string, unknown>;
  [other: string]: unknown;
}

export type TgMemberStatus =
  'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';

export interface TgBotCommand {
  command: string;
  description: string;
}

/** A Bot API failure. `status` doubles as `error_code`, as in the real replies. */
export class TelegramApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }

  toBody() {
    return {
      ok: false,
      error_code: this.status,
      description: this.description,
      ...(this.parameters ? { parameters: this.parameters } : {}),
    };
  }
}

export const badRequest = (what: string) => new TelegramApiError(400, `Bad Request: ${what}`);
export const forbidden = (what: string) => new TelegramApiError(403, `Forbidden: ${what}`);
