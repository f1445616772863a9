import type { SettingItem, SettingValue } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';

/** How an item is edited (60-web.md §4.3 "Inputs by type"). */
export type InputKind =
  'toggle' | 'number' | 'select' | 'chips' | 'textarea' | 'secret' | 'text' | 'readonly';

/** A group's unsaved edits: key → new value, `null` = clear the stored value (env/default). */
export type Draft = Record<string, SettingValue | null>;

export function inputKind(item: SettingItem): InputKind {
  if (!item.editable) return 'readonly';
  switch (item.type) {
    case 'boolean':
      return 'toggle';
    case 'integer':
      return 'number';
    case 'enum':
      return 'select';
    case 'list':
      return 'chips';
    case 'secret':
      return 'secret';
    case 'text':
      return 'textarea';
    default:
      return item.multiline ? 'textarea' : 'text';
  }
}

/** List settings holding media-server library ids: offered as a multi-select of libraries. */
export const LIBRARY_KEYS: ReadonlySet<string> = new Set([
  'MEMBER_LIBRARY_IDS',
  'RANKING_LIBRARY_IDS',
]);

/** The `type` attribute of a text-like input. */
export function htmlInputType(item: SettingItem): 'url' | 'text' {
  return item.type === 'url' ? 'url' : 'text';
}

/** Translation key of the source badge (Database / Environment / Default / Not set). */
export function sourceKey(item: SettingItem): string {
  return `adminSettings.source.${item.source}`;
}

/** Items needing attention: an ignored env value or a secret that can no longer be read. */
export function isBroken(item: SettingItem): boolean {
  return item.state === 'invalid' || item.state === 'undecryptable';
}

function sameValue(a: SettingValue | null | undefined, b: SettingValue | null | undefined) {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => v === b[i]);
  }
  return a === b;
}

/**
 * The draft after the admin typed `value` into `item`. A value equal to what is in effect is
 * not an edit (nothing to save), and an empty secret means "left untouched": secrets are never
 * pre-filled, so an empty box cannot mean "set it to empty" — Clear does that.
 */
export function withEdit(draft: Draft, item: SettingItem, value: SettingValue): Draft {
  const next = { ...draft };
  const untouched = item.sensitive ? value === '' : sameValue(value, item.value);
  if (untouched) delete next[item.key];
  else next[item.key] = value;
  return next;
}

/** The draft with `item` cleared (`null`: the stored value goes, env/default applies). */
export function withCleared(draft: Draft, item: SettingItem): Draft {
  return { ...draft, [item.key]: null };
}

/** The draft without any edit of `item`. */
export function withoutEdit(draft: Draft, item: SettingItem): Draft {
  const next = { ...draft };
  delete next[item.key];
  return next;
}

/**
 * What a number box holds: a whole number is sent as a number; anything else is sent as typed,
 * so the API's per-key message ("must be an integer …") lands on the field.
 */
export function parseInteger(text: string): SettingValue {
  const trimmed = text.trim();
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A list edited as chips: trimmed, without empties and duplicates, order kept. */
export function addToList(list: readonly string[], text: string): string[] {
  const items = text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  return [...new Set([...list, ...items])];
}

/** The value an input shows: the draft when edited, else the effective value (never a secret). */
export function shownValue(item: SettingItem, draft: Draft): SettingValue | null {
  if (item.key in draft) {
    const edited = draft[item.key];
    return edited === null ? (item.sensitive ? '' : (item.default ?? null)) : edited!;
  }
  if (item.sensitive) return '';
  return item.value ?? null;
}

/** `SETTING_INVALID` → per-key messages; anything else → null (shown for the whole group). */
export function fieldErrors(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.code !== 'SETTING_INVALID') return null;
  if (!Array.isArray(error.details)) return null;
  const out: Record<string, string> = {};
  for (const entry of error.details as unknown[]) {
    const { key, message } = (entry ?? {}) as { key?: unknown; message?: unknown };
    if (typeof key === 'string' && typeof message === 'string') out[key] = message;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * `SECRET_REENTRY_REQUIRED` → the secrets to type again (their address changed in the draft);
 * anything else → null. The API sent nothing to the new address.
 */
export function reentryKeys(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.code !== 'SECRET_REENTRY_REQUIRED') return null;
  const keys = (error.details as { keys?: unknown } | undefined)?.keys;
  if (!Array.isArray(keys)) return null;
  const out = keys.filter((k): k is string => typeof k === 'string');
  return out.length > 0 ? out : null;
}

/** A webhook token from 32 random bytes, as hex (30-settings.md §4.2 "Generate"). */
export function tokenFromBytes(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The address the media server posts "new item" events to (shown once after Generate). */
export function webhookUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}/api/v1/webhooks/media-server?token=${token}`;
}

/** One foldable part of a group: `id` names it (`adminSettings.sections.*`); null = untitled. */
export interface SettingsSection {
  id: string | null;
  items: SettingItem[];
  /** Folded until opened: overrides for tests and demos, kept out of the everyday view. */
  folded: boolean;
}

/**
 * The sections of the larger groups (issue 14: grouped sections that fold), by key prefix in
 * the group's order. The API has no sections; a key no prefix names stays in the untitled
 * first section, so a setting added by a newer API still shows.
 */
const SECTIONS: readonly { id: string; prefixes: readonly string[]; folded?: boolean }[] = [
  { id: 'webhook', prefixes: ['MEDIA_SERVER_WEBHOOK_'] },
  { id: 'members', prefixes: ['MEMBER_'] },
  { id: 'requests', prefixes: ['REQUEST_'] },
  { id: 'codes', prefixes: ['EMAIL_CODE_'] },
  { id: 'rankings', prefixes: ['RANKING_'] },
  {
    id: 'overrides',
    prefixes: ['TMDB_API_BASE', 'TMDB_IMAGE_BASE', 'STRIPE_API_BASE'],
    folded: true,
  },
];

export function sectionsOf(items: readonly SettingItem[]): SettingsSection[] {
  const sections: SettingsSection[] = [{ id: null, items: [], folded: false }];
  for (const item of items) {
    const spec = SECTIONS.find((s) => s.prefixes.some((p) => item.key.startsWith(p)));
    const id = spec?.id ?? null;
    let section = sections.find((s) => s.id === id);
    if (!section) {
      section = { id, items: [], folded: spec?.folded ?? false };
      sections.push(section);
    }
    section.items.push(item);
  }
  // A folded section opens when something in it needs a look.
  for (const section of sections) {
    if (section.items.some((i) => i.source === 'db' || i.state !== 'ok')) section.folded = false;
  }
  return sections.filter((s) => s.items.length > 0);
}
