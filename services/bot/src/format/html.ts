/** HTML helpers for Telegram's `parse_mode: "HTML"` (40-bot.md §10.2). */

export const CAPTION_LIMIT = 1024;
export const TEXT_LIMIT = 4096;

/** Escapes `& < > "`, the only entities Telegram's HTML mode needs. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * Cuts a raw value to `max` characters (code points, so no surrogate pair is split), adding `…`.
 * Always applied before escaping, so a cut never lands inside an entity or a tag.
 */
export function cut(value: string, max: number): string {
  const chars = Array.from(value);
  if (chars.length <= max) return value;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

/** Cut, then escape: the form every interpolated value takes. */
export function esc(value: string | number | null | undefined, max = 4096): string {
  return escapeHtml(cut(String(value ?? ''), max));
}

const ENTITY = /&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/gi;

function decodeEntities(value: string): string {
  return value.replace(ENTITY, (_m, name: string) => {
    const lower = name.toLowerCase();
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'amp') return '&';
    if (lower === 'quot') return '"';
    const code = lower.startsWith('#x')
      ? parseInt(lower.slice(2), 16)
      : parseInt(lower.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

/** Text without tags and with entities decoded: what Telegram shows and measures. */
export function stripTags(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''));
}

/** Telegram's length of an HTML text: UTF-16 units after entity parsing. */
export function visibleLength(html: string): number {
  return stripTags(html).length;
}
