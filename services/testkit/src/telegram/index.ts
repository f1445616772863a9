export {
  startFakeTelegram,
  type FakeTelegram,
  type FakeTelegramOptions,
  type InjectedError,
  type TelegramCall,
} from './server.js';
export type { WebhookDelivery as TelegramWebhookDelivery } from './methods-updates.js';
export type { BotProfile } from './methods-misc.js';
export {
  TelegramState,
  type StoredMessage,
  type WebhookConfig as TelegramWebhookConfig,
} from './state.js';
export { parseHtml, type FormattedText } from './html.js';
export {
  callbackQuery,
  commandMessage,
  groupChat,
  newChatMembers,
  privateChat,
  replyMessage,
  supergroupChat,
  textMessage,
  tgUser,
  type UpdateDraft,
  type UserSeed,
} from './updates.js';
export {
  TelegramApiError,
  type TgBotCommand,
  type TgCallbackQuery,
  type TgChat,
  type TgChatType,
  type TgInlineButton,
  type TgInlineKeyboard,
  type TgMemberStatus,
  type TgMessage,
  type TgMessageEntity,
  type TgPhotoSize,
  type TgUpdate,
  type TgUser,
} from './types.js';
