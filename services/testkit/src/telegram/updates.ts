// Builders for realistic incoming updates (what Telegram sends the bot). They leave
// `update_id` and `message_id` open; the fake fills them in when the update is queued or pushed,
// so ids follow the same per-chat sequence as the bot's own messages.
import { randomInt } from 'node:crypto';
import type { TgCallbackQuery, TgChat, TgMessage, TgMessageEntity, TgUser } from './types.js';

/** An update before the fake gives it an `update_id` (and its message a `message_id`). */
export interface UpdateDraft {
  update_id?: number;
  message?: TgMessage;
  edited_message?: TgMessage;
  callback_query?: TgCallbackQuery;
  [other: string]: unknown;
}

export interface UserSeed {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export function tgUser(seed: UserSeed): TgUser {
  return {
    id: seed.id,
    is_bot: false,
    first_name: seed.first_name ?? `User${seed.id}`,
    ...(seed.last_name ? { last_name: seed.last_name } : {}),
    ...(seed.username ? { username: seed.username } : {}),
    language_code: seed.language_code ?? 'en',
  };
}

/** A private chat's id is the user's id. */
export function privateChat(user: TgUser): TgChat {
  return {
    id: user.id,
    type: 'private',
    first_name: user.first_name,
    ...(user.last_name ? { last_name: user.last_name } : {}),
    ...(user.username ? { username: user.username } : {}),
  };
}

/** Group ids are negative; supergroup ids are -100 followed by the channel id. */
export function groupChat(id: number, title: string): TgChat {
  if (id >= 0) throw new Error('group chat ids are negative');
  return { id, type: 'group', title };
}

export function supergroupChat(channelId: number, title: string): TgChat {
  return { id: -Number(`100${Math.abs(channelId)}`), type: 'supergroup', title };
}

const now = () => Math.floor(Date.now() / 1000);

/** A plain text message (no entities), as from a user typing. */
export function textMessage(o: { from: TgUser; chat?: TgChat; text: string }): UpdateDraft {
  return {
    message: {
      message_id: 0,
      from: o.from,
      chat: o.chat ?? privateChat(o.from),
      date: now(),
      text: o.text,
    },
  };
}

/**
 * A command message. Telegram marks the command with a `bot_command` entity at offset 0;
 * telegraf matches commands only through that entity, so it is always present.
 */
export function commandMessage(o: {
  from: TgUser;
  chat?: TgChat;
  command: string;
  args?: string;
  /** Adds `@botname`, as clients do in groups. */
  botUsername?: string;
}): UpdateDraft {
  const command = `/${o.command}${o.botUsername ? `@${o.botUsername}` : ''}`;
  const entities: TgMessageEntity[] = [{ type: 'bot_command', offset: 0, length: command.length }];
  const draft = textMessage({
    from: o.from,
    chat: o.chat,
    text: o.args ? `${command} ${o.args}` : command,
  });
  draft.message!.entities = entities;
  return draft;
}

/** A reply to one of the bot's messages (e.g. after a force_reply prompt). */
export function replyMessage(o: { from: TgUser; to: TgMessage; text: string }): UpdateDraft {
  const draft = textMessage({ from: o.from, chat: o.to.chat, text: o.text });
  draft.message!.reply_to_message = o.to;
  return draft;
}

/** A button press on `message` (a message the bot sent, as returned by the fake). */
export function callbackQuery(o: {
  from: TgUser;
  message: TgMessage;
  data: string;
  id?: string;
}): UpdateDraft {
  const query: TgCallbackQuery = {
    // Real ids are opaque 19-digit strings; chat_instance is a signed 64-bit number as text.
    id: o.id ?? `${randomInt(2 ** 40, 2 ** 47)}${randomInt(100_000, 1_000_000)}`,
    from: o.from,
    message: o.message,
    chat_instance: String(randomInt(1, 2 ** 47) * (randomInt(2) === 0 ? -1 : 1)),
    data: o.data,
  };
  return { callback_query: query };
}

/** The service message Telegram sends when people join a group. */
export function newChatMembers(o: { chat: TgChat; from: TgUser; members: TgUser[] }): UpdateDraft {
  return {
    message: {
      message_id: 0,
      from: o.from,
      chat: o.chat,
      date: now(),
      new_chat_members: o.members,
      // Telegram still fills the deprecated single-member field with the first one.
      new_chat_member: o.members[0],
      new_chat_participant: o.members[0],
    },
  };
}
