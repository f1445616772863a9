import { randomBytes } from 'node:crypto';
import { resolveChat, unixTime, type MethodContext, type MethodHandler } from './context.js';
import type { FormattedText } from './html.js';
import { formatText, int, object, readReplyMarkup, str, type Params } from './params.js';
import type { StoredMessage } from './state.js';
import { badRequest, type TgChat, type TgMessage, type TgPhotoSize } from './types.js';

const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;
const CALLBACK_TEXT_LIMIT = 200;
const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the ' +
  'same as a current content and reply markup of the message';

function messageText(params: Params, name: 'text' | 'caption', limit: number, tooLong: string) {
  const entities = object(params, name === 'text' ? 'entities' : 'caption_entities', 'entities');
  const formatted = formatText(str(params, name) ?? '', str(params, 'parse_mode'), entities);
  if (formatted.text.length > limit) throw badRequest(tooLong);
  return formatted;
}

function readText(params: Params): FormattedText {
  if ((str(params, 'text') ?? '') === '') throw badRequest('message text is empty');
  const formatted = messageText(params, 'text', TEXT_LIMIT, 'message is too long');
  if (formatted.text === '') throw badRequest('message text is empty');
  return formatted;
}

function readCaption(params: Params): FormattedText {
  return messageText(params, 'caption', CAPTION_LIMIT, 'message caption is too long');
}

/** The API echoes an inline keyboard only when it has at least one row. */
function inlineMarkup(params: Params) {
  const { inline } = readReplyMarkup(params);
  return inline && inline.inline_keyboard.length > 0 ? inline : undefined;
}

function replyTarget(ctx: MethodContext, chat: TgChat, params: Params): TgMessage | undefined {
  const reply = object(params, 'reply_parameters', 'reply parameters') as
    { message_id?: number; allow_sending_without_reply?: boolean } | undefined;
  const messageId = reply?.message_id ?? int(params, 'reply_to_message_id');
  if (messageId === undefined) return undefined;
  const target = ctx.state.findMessage(chat.id, messageId);
  const allowMissing =
    reply?.allow_sending_without_reply === true || params.allow_sending_without_reply === true;
  if (!target && !allowMissing) throw badRequest('message to be replied not found');
  return target?.message;
}

function newMessage(ctx: MethodContext, chat: TgChat, params: Params): TgMessage {
  const reply = replyTarget(ctx, chat, params);
  return {
    message_id: ctx.state.allocateMessageId(chat.id),
    from: ctx.bot,
    chat,
    date: unixTime(ctx),
    ...(reply ? { reply_to_message: reply } : {}),
  };
}

function withEntities(message: TgMessage, field: 'text' | 'caption', value: FormattedText) {
  const entitiesField = field === 'text' ? 'entities' : 'caption_entities';
  delete message[field];
  delete message[entitiesField];
  if (value.text !== '') message[field] = value.text;
  if (value.entities.length > 0) message[entitiesField] = value.entities;
}

const sendMessage: MethodHandler = (ctx, params) => {
  const chat = resolveChat(ctx, params);
  const text = readText(params);
  const markup = inlineMarkup(params);
  const preview = object(params, 'link_preview_options', 'link preview options');
  const message = newMessage(ctx, chat, params);
  withEntities(message, 'text', text);
  if (preview !== undefined) message.link_preview_options = preview as Record<string, unknown>;
  if (markup) message.reply_markup = markup;
  return ctx.state.storeMessage(message, true).message;
};

function photoSizes(): TgPhotoSize[] {
  const id = () => `AgACAgIAAxkDAAI${randomBytes(24).toString('base64url')}`;
  return [90, 320, 800].map((width) => ({
    file_id: id(),
    file_unique_id: `AQAD${randomBytes(8).toString('base64url')}`,
    width,
    height: Math.round(width * 1.5),
    file_size: width * 60,
  }));
}

async function checkPhoto(ctx: MethodContext, photo: unknown) {
  if (photo instanceof File) return;
  if (typeof photo !== 'string' || photo === '')
    throw badRequest('there is no photo in the request');
  if (!/^https?:\/\//i.test(photo)) {
    const known = [...ctx.state.messages.values()].some((chat) =>
      [...chat.values()].some((m) => m.message.photo?.some((size) => size.file_id === photo)),
    );
    if (!known) throw badRequest('wrong file identifier/HTTP URL specified');
    return;
  }
  if (!ctx.settings.fetchPhotos) return;
  // Telegram downloads the URL itself and refuses anything that is not an image.
  const response = await fetch(photo, { signal: AbortSignal.timeout(5000) }).catch(() => null);
  if (!response || !response.ok) throw badRequest('failed to get HTTP URL content');
  const type = response.headers.get('content-type') ?? '';
  await response.arrayBuffer();
  if (!type.startsWith('image/')) throw badRequest('wrong type of the web page content');
}

const sendPhoto: MethodHandler = async (ctx, params) => {
  const chat = resolveChat(ctx, params);
  await checkPhoto(ctx, params.photo);
  const caption = readCaption(params);
  const markup = inlineMarkup(params);
  const message = newMessage(ctx, chat, params);
  message.photo = photoSizes();
  withEntities(message, 'caption', caption);
  if (markup) message.reply_markup = markup;
  return ctx.state.storeMessage(message, true).message;
};

function editable(ctx: MethodContext, params: Params): StoredMessage {
  if (str(params, 'inline_message_id') !== undefined) {
    // Drift: inline messages are never sent by Usher, so the fake does not keep any.
    throw badRequest('MESSAGE_ID_INVALID');
  }
  const chat = resolveChat(ctx, params);
  const messageId = int(params, 'message_id');
  if (messageId === undefined) throw badRequest('message identifier is not specified');
  const stored = ctx.state.findMessage(chat.id, messageId);
  if (!stored) throw badRequest('message to edit not found');
  if (!stored.sentByBot) throw badRequest("message can't be edited");
  return stored;
}

/** What Telegram compares to decide that an edit changes nothing. */
const contentKey = (m: TgMessage) =>
  JSON.stringify([
    m.text,
    m.entities,
    m.caption,
    m.caption_entities,
    m.reply_markup ?? null,
    m.link_preview_options,
  ]);

/** Applies an edit, refusing it when nothing visible changes, as Telegram does. */
function applyEdit(ctx: MethodContext, stored: StoredMessage, edit: (m: TgMessage) => void) {
  const next: TgMessage = structuredClone(stored.message);
  edit(next);
  if (contentKey(next) === contentKey(stored.message)) throw badRequest(NOT_MODIFIED);
  next.edit_date = unixTime(ctx);
  stored.message = next;
  return next;
}

function setMarkup(message: TgMessage, markup: TgMessage['reply_markup']) {
  // Omitting reply_markup in an edit removes the keyboard.
  if (markup) message.reply_markup = markup;
  else delete message.reply_markup;
}

const editMessageText: MethodHandler = (ctx, params) => {
  const stored = editable(ctx, params);
  const text = readText(params);
  if (stored.message.text === undefined)
    throw badRequest('there is no text in the message to edit');
  const markup = inlineMarkup(params);
  const preview = object(params, 'link_preview_options', 'link preview options');
  return applyEdit(ctx, stored, (message) => {
    withEntities(message, 'text', text);
    if (preview !== undefined) message.link_preview_options = preview as Record<string, unknown>;
    setMarkup(message, markup);
  });
};

const editMessageCaption: MethodHandler = (ctx, params) => {
  const stored = editable(ctx, params);
  if (!stored.message.photo) throw badRequest('there is no caption in the message to edit');
  const caption = readCaption(params);
  const markup = inlineMarkup(params);
  return applyEdit(ctx, stored, (message) => {
    withEntities(message, 'caption', caption);
    setMarkup(message, markup);
  });
};

const editMessageReplyMarkup: MethodHandler = (ctx, params) => {
  const stored = editable(ctx, params);
  const markup = inlineMarkup(params);
  return applyEdit(ctx, stored, (message) => setMarkup(message, markup));
};

const deleteMessage: MethodHandler = (ctx, params) => {
  const chat = resolveChat(ctx, params);
  const messageId = int(params, 'message_id');
  if (messageId === undefined) throw badRequest('message identifier is not specified');
  const stored = ctx.state.findMessage(chat.id, messageId);
  if (!stored) throw badRequest('message to delete not found');
  const botStatus = ctx.state.memberStatus(chat.id, ctx.bot.id);
  const botIsAdmin = botStatus === 'administrator' || botStatus === 'creator';
  if (!stored.sentByBot && chat.type !== 'private' && !botIsAdmin) {
    throw badRequest("message can't be deleted");
  }
  stored.deleted = true;
  return true;
};

const answerCallbackQuery: MethodHandler = (ctx, params) => {
  const id = str(params, 'callback_query_id');
  const record = id === undefined ? undefined : ctx.state.callbackQueries.get(id);
  const expired = record && ctx.now() - record.createdAt > ctx.settings.callbackQueryTtlMs;
  if (!record || record.answered || expired) {
    throw badRequest('query is too old and response timeout expired or query ID is invalid');
  }
  if ((str(params, 'text') ?? '').length > CALLBACK_TEXT_LIMIT)
    throw badRequest('MESSAGE_TOO_LONG');
  record.answered = true;
  record.answer = { ...params };
  return true;
};

export const messageMethods: Record<string, MethodHandler> = {
  sendMessage,
  sendPhoto,
  editMessageText,
  editMessageCaption,
  editMessageReplyMarkup,
  deleteMessage,
  answerCallbackQuery,
};
