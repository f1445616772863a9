import type { SettingValue } from '@usher/contracts';
import { Cron } from 'croner';
import type { SettingDefinition } from './types.js';

export type Parsed =
  { ok: true; value: SettingValue; stored: string } | { ok: false; message: string };

const fail = (message: string): Parsed => ({ ok: false, message });

function checkUrl(text: string): string | null {
  if (text.length > 2048) return 'must be at most 2048 characters';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // URL parsing reports a malformed address only by throwing.
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.hash) return 'must not contain a #fragment';
  return null;
}

function isTimezone(text: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: text });
    return true;
  } catch {
    // Intl rejects unknown zones only by throwing.
    return false;
  }
}

export function isCron(text: string): boolean {
  if (text.trim().split(/\s+/).length !== 5) return false;
  try {
    new Cron(text, { paused: true });
    return true;
  } catch {
    // croner reports an unparsable pattern only by throwing.
    return false;
  }
}

function checkString(def: SettingDefinition, text: string): string | null {
  if (def.minLength !== undefined && text.length < def.minLength) {
    return `must be at least ${def.minLength} characters`;
  }
  const max = def.maxLength ?? (def.type === 'secret' ? 4096 : undefined);
  if (max !== undefined && text.length > max) return `must be at most ${max} characters`;
  if (def.pattern && !def.pattern.test(text)) return `must be ${def.patternHint ?? 'well-formed'}`;
  return null;
}

/**
 * Validates a value as sent in a PUT (typed JSON) and returns its canonical typed form and the
 * text stored in `settings.value`. Empty strings are real values only where the key allows
 * empty; elsewhere `null` (delete) is the way to clear a key.
 */
export function parseInput(def: SettingDefinition, input: unknown): Parsed {
  const emptyCheck = (text: string): Parsed | null =>
    text === ''
      ? def.allowEmpty
        ? { ok: true, value: '', stored: '' }
        : fail('must not be empty; send null to clear it')
      : null;

  switch (def.type) {
    case 'boolean':
      return typeof input === 'boolean'
        ? { ok: true, value: input, stored: String(input) }
        : fail('must be true or false');
    case 'integer': {
      if (typeof input !== 'number' || !Number.isInteger(input))
        return fail('must be a whole number');
      if (def.min !== undefined && input < def.min) return fail(`must be at least ${def.min}`);
      if (def.max !== undefined && input > def.max) return fail(`must be at most ${def.max}`);
      return { ok: true, value: input, stored: String(input) };
    }
    case 'list': {
      if (!Array.isArray(input) || input.some((i) => typeof i !== 'string'))
        return fail('must be a list of strings');
      const items = [...new Set((input as string[]).map((i) => i.trim()).filter(Boolean))];
      const limit = Math.min(def.maxItems ?? 100, 100);
      if (items.length > limit) return fail(`must have at most ${limit} items`);
      const bad = def.pattern ? items.find((i) => !def.pattern!.test(i)) : undefined;
      if (bad !== undefined)
        return fail(`"${bad.slice(0, 40)}" is not valid: use ${def.patternHint}`);
      return { ok: true, value: items, stored: JSON.stringify(items) };
    }
    default: {
      if (typeof input !== 'string') return fail('must be a string');
      const text = def.type === 'text' || def.type === 'secret' ? input : input.trim();
      const empty = emptyCheck(def.type === 'text' ? text.trim() : text);
      if (empty) return empty;
      let canonical = text;
      let problem: string | null = null;
      if (def.type === 'url') {
        problem = checkUrl(text);
        canonical = text.replace(/\/+$/, '');
      } else if (def.type === 'enum') {
        problem = def.options?.includes(text) ? null : `must be one of ${def.options?.join(', ')}`;
      } else if (def.type === 'cron') {
        problem = isCron(text)
          ? null
          : 'must be a 5-field cron expression (minute hour day month weekday)';
      } else if (def.type === 'timezone') {
        problem = isTimezone(text) ? null : 'must be an IANA timezone such as Europe/Berlin';
      } else if (def.type === 'chat_id') {
        problem = /^-?[1-9]\d{0,15}$/.test(text)
          ? null
          : 'must be a Telegram chat id (groups are negative)';
      }
      problem ??= checkString(def, canonical);
      problem ??= def.check?.(canonical) ?? null;
      return problem ? fail(problem) : { ok: true, value: canonical, stored: canonical };
    }
  }
}

/**
 * Reads a stored or environment text back into its typed value with the same rules as a PUT,
 * so a hand-edited row or a wrong env var is reported `invalid` instead of being used.
 */
export function parseText(def: SettingDefinition, text: string): Parsed {
  switch (def.type) {
    case 'boolean': {
      const lower = text.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(lower)) return parseInput(def, true);
      if (['false', '0', 'no', 'off'].includes(lower)) return parseInput(def, false);
      return fail('must be true or false');
    }
    case 'integer':
      return /^-?\d+$/.test(text.trim())
        ? parseInput(def, Number(text.trim()))
        : fail('must be a whole number');
    case 'list': {
      const trimmed = text.trim();
      if (trimmed.startsWith('[')) {
        try {
          return parseInput(def, JSON.parse(trimmed));
        } catch {
          // Malformed JSON in a hand-written value is reported as invalid, not thrown.
          return fail('must be a JSON array or a comma-separated list');
        }
      }
      return parseInput(def, trimmed === '' ? [] : trimmed.split(','));
    }
    default:
      return parseInput(def, text);
  }
}
