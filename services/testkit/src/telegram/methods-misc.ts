import { resolveChat, type MethodContext, type MethodHandler } from './context.js';
import { int, object, str, type Params } from './params.js';
import { badRequest, type TgBotCommand, type TgMemberStatus, type TgUser } from './types.js';

export interface BotProfile extends TgUser {
  can_join_groups: boolean;
  can_read_all_group_messages: boolean;
  supports_inline_queries: boolean;
  can_connect_to_business: boolean;
  has_main_web_app: boolean;
}

const SCOPES = [
  'default',
  'all_private_chats',
  'all_group_chats',
  'all_chat_administrators',
  'chat',
  'chat_administrators',
  'chat_member',
];

function readScope(ctx: MethodContext, params: Params): Record<string, unknown> {
  const scope = (object(params, 'scope', 'BotCommandScope') ?? { type: 'default' }) as Record<
    string,
    unknown
  >;
  if (typeof scope.type !== 'string' || !SCOPES.includes(scope.type)) {
    throw badRequest('unsupported bot command scope type');
  }
  if (scope.type.startsWith('chat')) {
    const chat = resolveChat(ctx, scope);
    const normalised: Record<string, unknown> = { type: scope.type, chat_id: chat.id };
    if (scope.type === 'chat_member') {
      const userId = int(scope, 'user_id');
      if (userId === undefined) throw badRequest('user not found');
      normalised.user_id = userId;
    }
    return normalised;
  }
  return { type: scope.type };
}

function readLanguage(params: Params): string {
  const language = str(params, 'language_code') ?? '';
  if (language !== '' && !/^[a-z]{2}$/.test(language)) {
    throw badRequest('invalid language code specified');
  }
  return language;
}

function readCommands(params: Params): TgBotCommand[] {
  const commands = object(params, 'commands', 'commands');
  if (!Array.isArray(commands)) throw badRequest('parameter "commands" is required');
  if (commands.length > 100) throw badRequest('too many commands specified');
  return commands.map((entry) => {
    const command = (entry ?? {}) as Record<string, unknown>;
    if (typeof command.command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(command.command)) {
      throw badRequest('BOT_COMMAND_INVALID');
    }
    const description = typeof command.description === 'string' ? command.description.trim() : '';
    if (description.length < 1 || description.length > 256) {
      throw badRequest('BOT_COMMAND_DESCRIPTION_INVALID');
    }
    return { command: command.command, description };
  });
}

const setMyCommands: MethodHandler = (ctx, params) => {
  const commands = readCommands(params);
  const key = ctx.state.commandKey(readScope(ctx, params), readLanguage(params));
  if (commands.length === 0) ctx.state.commands.delete(key);
  else ctx.state.commands.set(key, commands);
  return true;
};

const deleteMyCommands: MethodHandler = (ctx, params) => {
  ctx.state.commands.delete(ctx.state.commandKey(readScope(ctx, params), readLanguage(params)));
  return true;
};

const getMyCommands: MethodHandler = (ctx, params) =>
  ctx.state.commands.get(ctx.state.commandKey(readScope(ctx, params), readLanguage(params))) ?? [];

const ADMIN_RIGHTS = {
  can_be_edited: false,
  is_anonymous: false,
  can_manage_chat: true,
  can_delete_messages: true,
  can_manage_video_chats: true,
  can_restrict_members: true,
  can_promote_members: false,
  can_change_info: true,
  can_invite_users: true,
  can_post_stories: false,
  can_edit_stories: false,
  can_delete_stories: false,
  can_pin_messages: true,
};

function memberObject(status: TgMemberStatus, user: TgUser): Record<string, unknown> {
  switch (status) {
    case 'creator':
      return { user, status, is_anonymous: false };
    case 'administrator':
      return { user, status, ...ADMIN_RIGHTS };
    case 'kicked':
      return { user, status, until_date: 0 };
    case 'restricted':
      return { user, status, is_member: true, can_send_messages: false, until_date: 0 };
    default:
      return { user, status };
  }
}

const getChatMember: MethodHandler = (ctx, params) => {
  const chat = resolveChat(ctx, params);
  const userId = int(params, 'user_id');
  const user = userId === undefined ? undefined : ctx.state.users.get(userId);
  if (!user) {
    if (userId === ctx.bot.id) {
      return memberObject(ctx.state.memberStatus(chat.id, userId) ?? 'member', ctx.bot);
    }
    throw badRequest('user not found');
  }
  const seeded = ctx.state.memberStatus(chat.id, user.id);
  const status = seeded ?? (chat.type === 'private' && chat.id === user.id ? 'member' : 'left');
  return memberObject(status, user);
};

export function miscMethods(profile: BotProfile): Record<string, MethodHandler> {
  return {
    getMe: () => profile,
    setMyCommands,
    deleteMyCommands,
    getMyCommands,
    getChatMember,
  };
}
