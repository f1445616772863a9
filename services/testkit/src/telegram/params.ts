// Parameter reading as the Bot API does it: every transport (query, form, multipart, JSON) may
// carry any parameter, numbers and booleans may arrive as strings, and objects (reply_markup,
// entities, commands, scope) may arrive as JSON-serialised strings.
import { EntityParseError, parseHtml, trimFormatted, type FormattedText } from './html.js';
import { badRequest, type TgInlineKeyboard, type TgMessageEntity } from './types.js';

export type Params = Record<string, unknown>;

export function str(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function int(params: Params, name: string): number | undefined {
  const value = params[name];
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

export function bool(params: Params, name: string): boolean {
  const value = params[name];
  return value === true || value === 'true' || value === '1' || value === 1;
}

/** Objects may be sent as JSON strings (query, form) or inline (JSON body). */
export function object(params: Params, name: string, what: string): unknown {
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (_error) {
    // The real API reports an unparsable JSON parameter with a fixed text per parameter.
    throw badRequest(`can't parse ${what} JSON object`);
  }
}

/** Applies `parse_mode` and the `entities` parameter, as sendMessage does. */
export function formatText(
  text: string,
  parseMode: string | undefined,
  explicitEntities: unknown,
): FormattedText {
  const mode = (parseMode ?? '').toLowerCase();
  if (mode === 'html') {
    try {
      return parseHtml(text);
    } catch (error) {
      if (error instanceof EntityParseError) {
        throw badRequest(`can't parse entities: ${error.message}`);
      }
      throw error;
    }
  }
  if (mode !== '' && mode !== 'markdown' && mode !== 'markdownv2') {
    throw badRequest('unsupported parse_mode');
  }
  // Drift: Markdown modes are not parsed (Usher only sends HTML); the text is kept as given.
  const entities = Array.isArray(explicitEntities) ? (explicitEntities as TgMessageEntity[]) : [];
  return trimFormatted({ text, entities });
}

/** Bot API lengths are counted in UTF-16 code units of the text after entity parsing. */
export const visibleLength = (text: string) => text.length;

const ACTION_FIELDS = [
  'callback_data',
  'url',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'copy_text',
  'web_app',
  'callback_game',
  'pay',
];

/** Checks an inline keyboard the way the API does; other markup kinds pass through unchanged. */
export function readReplyMarkup(params: Params): {
  raw: unknown;
  inline?: TgInlineKeyboard;
} {
  const markup = object(params, 'reply_markup', 'reply keyboard markup');
  if (markup === undefined) return { raw: undefined };
  if (typeof markup !== 'object' || markup === null || Array.isArray(markup)) {
    throw badRequest("can't parse reply keyboard markup JSON object");
  }
  const record = markup as Record<string, unknown>;
  if (!('inline_keyboard' in record)) return { raw: markup };
  const rows = record.inline_keyboard;
  if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row))) {
    throw badRequest(
      'field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays',
    );
  }
  for (const row of rows as unknown[][]) {
    for (const button of row) {
      const b = (button ?? {}) as Record<string, unknown>;
      if (typeof b.text !== 'string') {
        throw badRequest("can't parse inline keyboard button: Text must be a String");
      }
      const actions = ACTION_FIELDS.filter((field) => b[field] !== undefined);
      if (actions.length !== 1) {
        throw badRequest(
          "can't parse inline keyboard button: InlineKeyboardButton must have exactly one " +
            'optional field',
        );
      }
      if (typeof b.callback_data === 'string') {
        const bytes = Buffer.byteLength(b.callback_data, 'utf8');
        if (bytes < 1 || bytes > 64) throw badRequest('BUTTON_DATA_INVALID');
      }
      if (typeof b.url === 'string' && !/^(https?|tg):\/\/\S+$/i.test(b.url)) {
        throw badRequest('BUTTON_URL_INVALID');
      }
    }
  }
  return { raw: markup, inline: { inline_keyboard: rows as TgInlineKeyboard['inline_keyboard'] } };
}
