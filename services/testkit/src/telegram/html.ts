// Telegram's HTML parse mode, following the rules of tdlib's `parse_html` (the parser behind the
// Bot API): the same tag set, attribute grammar, entity decoding and error texts, with byte
// offsets counted in UTF-8 as the real error messages do.
import type { TgMessageEntity } from './types.js';

export interface FormattedText {
  text: string;
  entities: TgMessageEntity[];
}

export class EntityParseError extends Error {}

const ENTITY_TYPE: Record<string, string> = {
  a: 'text_link',
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
};

// tdlib treats the terminating NUL as a space, so `undefined` (past the end) counts as one too.
const isSpace = (c: string | undefined) =>
  c === undefined || c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\v';
const isNameChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9.-]/.test(c);

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Decodes `&lt; &gt; &amp; &quot; &#N; &#xH;` at `i`; anything else stays a literal `&`. */
function decodeEntity(text: string, i: number): { char: string; end: number } | null {
  const match = /^&(#x[0-9a-fA-F]{1,8}|#[0-9]{1,10}|[a-zA-Z]{2,4});/.exec(text.slice(i, i + 14));
  if (!match) return null;
  const name = match[1]!;
  let char: string | undefined;
  if (name.startsWith('#')) {
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    char = code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  } else {
    char = NAMED[name];
  }
  return char === undefined ? null : { char, end: i + match[0].length };
}

interface OpenTag {
  name: string;
  argument: string;
  offset: number;
}

function byteOffset(text: string, i: number) {
  return Buffer.byteLength(text.slice(0, i));
}

/** Reads the attributes of a start tag beginning after the tag name; returns the argument. */
function readAttributes(text: string, start: number, tag: string, beginPos: number) {
  let i = start;
  let argument = '';
  const fail = (what: string) => new EntityParseError(what);
  while (text[i] !== '>') {
    while (text[i] !== undefined && isSpace(text[i])) i++;
    if (text[i] === '>') break;
    const nameStart = i;
    while (!isSpace(text[i]) && text[i] !== '=' && text[i] !== '>') i++;
    const attribute = text.slice(nameStart, i);
    if (attribute.length === 0) {
      throw fail(`Empty attribute name in the tag "${tag}" at byte offset ${beginPos}`);
    }
    while (text[i] !== undefined && isSpace(text[i])) i++;
    if (text[i] !== '=' && tag === 'blockquote' && attribute === 'expandable') {
      // The one attribute Telegram accepts without a value.
      argument = 'expandable';
      continue;
    }
    if (text[i] !== '=') {
      throw fail(
        `Expected equal sign in declaration of an attribute of the tag "${tag}" ` +
          `at byte offset ${beginPos}`,
      );
    }
    i++;
    while (text[i] !== undefined && isSpace(text[i])) i++;
    if (text[i] === undefined) throw fail(`Unclosed start tag at byte offset ${beginPos}`);
    let value = '';
    const quote = text[i];
    if (quote !== '"' && quote !== "'") {
      const tokenStart = i;
      while (isNameChar(text[i])) i++;
      value = text.slice(tokenStart, i).toLowerCase();
      if (!isSpace(text[i]) && text[i] !== '>') {
        throw fail(`Unexpected end of name token at byte offset ${byteOffset(text, tokenStart)}`);
      }
    } else {
      i++;
      while (text[i] !== quote && text[i] !== undefined) {
        const decoded = text[i] === '&' ? decodeEntity(text, i) : null;
        if (decoded) {
          value += decoded.char;
          i = decoded.end;
        } else {
          value += text[i++];
        }
      }
      if (text[i] === quote) i++;
    }
    if (text[i] === undefined) throw fail(`Unclosed start tag at byte offset ${beginPos}`);
    if (tag === 'a' && attribute === 'href') argument = value;
    else if (tag === 'code' && attribute === 'class' && value.startsWith('language-')) {
      argument = value.slice('language-'.length);
    } else if (tag === 'span' && attribute === 'class' && value.startsWith('tg-')) {
      argument = value.slice(3);
    } else if (tag === 'blockquote' && attribute === 'expandable') argument = 'expandable';
  }
  return { end: i, argument };
}

function toEntity(tag: OpenTag, length: number): TgMessageEntity | null {
  const type = ENTITY_TYPE[tag.name]!;
  if (type === 'text_link') {
    // tdlib drops links it cannot use instead of failing the message.
    return tag.argument ? { type, offset: tag.offset, length, url: tag.argument } : null;
  }
  if (type === 'blockquote' && tag.argument === 'expandable') {
    return { type: 'expandable_blockquote', offset: tag.offset, length };
  }
  return { type, offset: tag.offset, length };
}

/** Parses `html` or throws EntityParseError with tdlib's message (without the API prefix). */
export function parseHtml(html: string): FormattedText {
  let out = '';
  const open: OpenTag[] = [];
  const entities: TgMessageEntity[] = [];
  for (let i = 0; i < html.length; i++) {
    const c = html[i]!;
    if (c === '&') {
      const decoded = decodeEntity(html, i);
      if (decoded) {
        out += decoded.char;
        i = decoded.end - 1;
        continue;
      }
    }
    if (c !== '<') {
      out += c;
      continue;
    }
    const beginPos = byteOffset(html, i);
    i++;
    if (html[i] !== '/') {
      const nameStart = i;
      while (!isSpace(html[i]) && html[i] !== '>') i++;
      if (html[i] === undefined)
        throw new EntityParseError(`Unclosed start tag at byte offset ${beginPos}`);
      const name = html.slice(nameStart, i).toLowerCase();
      if (!(name in ENTITY_TYPE)) {
        throw new EntityParseError(`Unsupported start tag "${name}" at byte offset ${beginPos}`);
      }
      const { end, argument } = readAttributes(html, i, name, beginPos);
      i = end;
      if (name === 'span' && argument !== 'spoiler') {
        throw new EntityParseError(
          `Tag "span" must have class "tg-spoiler" at byte offset ${beginPos}`,
        );
      }
      open.push({ name, argument, offset: out.length });
      continue;
    }
    if (open.length === 0)
      throw new EntityParseError(`Unexpected end tag at byte offset ${beginPos}`);
    const nameStart = i + 1;
    while (!isSpace(html[i]) && html[i] !== '>') i++;
    const endName = html.slice(nameStart, i).toLowerCase();
    while (html[i] !== undefined && isSpace(html[i])) i++;
    if (html[i] !== '>') throw new EntityParseError(`Unclosed end tag at byte offset ${beginPos}`);
    const tag = open.pop()!;
    if (endName !== '' && endName !== tag.name) {
      throw new EntityParseError(
        `Unmatched end tag at byte offset ${beginPos}, expected "</${tag.name}>", ` +
          `found "</${endName}>"`,
      );
    }
    const length = out.length - tag.offset;
    const parent = open[open.length - 1];
    if (tag.name === 'code' && parent?.name === 'pre' && tag.argument) {
      // <pre><code class="language-x"> is one pre entity with a language, as in tdlib.
      parent.argument = tag.argument;
      continue;
    }
    const entity = length > 0 ? toEntity(tag, length) : null;
    if (entity) {
      if (entity.type === 'pre' && tag.argument) entity.language = tag.argument;
      entities.push(entity);
    }
  }
  if (open.length > 0) {
    throw new EntityParseError(
      `Can't find end tag corresponding to start tag "${open[open.length - 1]!.name}"`,
    );
  }
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return trimFormatted({ text: out, entities });
}

/** Telegram strips leading and trailing whitespace and clips the entities to match. */
export function trimFormatted({ text, entities }: FormattedText): FormattedText {
  const start = text.length - text.trimStart().length;
  const trimmed = text.trim();
  const end = start + trimmed.length;
  const clipped: TgMessageEntity[] = [];
  for (const entity of entities) {
    const from = Math.max(entity.offset, start);
    const to = Math.min(entity.offset + entity.length, end);
    if (to > from) clipped.push({ ...entity, offset: from - start, length: to - from });
  }
  return { text: trimmed, entities: clipped };
}
