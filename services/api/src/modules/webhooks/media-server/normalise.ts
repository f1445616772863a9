/**
 * The normalised "new item" event (50-integrations.md §2.2): Emby `library.new` and Jellyfin
 * `ItemAdded` mapped to one shape. Keys are looked up case-insensitively.
 */
export interface NewItemEvent {
  sender: 'emby' | 'jellyfin' | 'unknown';
  event: string;
  itemId?: string;
  itemType?: string;
  name?: string;
  seriesId?: string;
  seriesName?: string;
  season?: number;
  episode?: number;
  episodeEnd?: number;
  /** `ProviderIds.Tmdb` of the item itself (for an episode: the episode's, not the show's). */
  itemTmdbId?: number;
}

type Obj = Record<string, unknown>;

function field(obj: Obj | undefined, name: string): unknown {
  if (!obj) return undefined;
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === want) return v;
  return undefined;
}

function object(value: unknown): Obj | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Numbers may arrive as numbers or, from templates, as strings (possibly empty). */
function integer(value: unknown): number | undefined {
  const t = text(value);
  if (t === undefined || !/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Jellyfin GUIDs with or without dashes → 32 lower-case hex; Emby's numeric ids unchanged. */
function itemId(value: unknown): string | undefined {
  const t = text(value);
  if (!t) return undefined;
  const bare = t.replace(/-/g, '');
  return /^[0-9a-fA-F]{32}$/.test(bare) ? bare.toLowerCase() : t;
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && n > 0 ? n : undefined;
}

/** Each item field's key in the two payloads: `[Emby (under Item), Jellyfin (flat)]`. */
const KEYS = {
  itemId: ['Id', 'ItemId'],
  itemType: ['Type', 'ItemType'],
  name: ['Name', 'Name'],
  seriesId: ['SeriesId', 'SeriesId'],
  seriesName: ['SeriesName', 'SeriesName'],
  season: ['ParentIndexNumber', 'SeasonNumber'],
  episode: ['IndexNumber', 'EpisodeNumber'],
  episodeEnd: ['IndexNumberEnd', 'EpisodeNumberEnd'],
} as const;
const EMBY = 0;
const JELLYFIN = 1;

type ItemFields = Omit<NewItemEvent, 'sender' | 'event'>;

function itemFields(source: Obj | undefined, sender: 0 | 1, tmdb: unknown): ItemFields {
  const at = (key: keyof typeof KEYS): unknown => field(source, KEYS[key][sender]);
  return {
    itemId: itemId(at('itemId')),
    itemType: text(at('itemType')),
    name: text(at('name')),
    seriesId: itemId(at('seriesId')),
    seriesName: text(at('seriesName')),
    season: integer(at('season')),
    episode: integer(at('episode')),
    episodeEnd: integer(at('episodeEnd')),
    itemTmdbId: positive(integer(tmdb)),
  };
}

export function normaliseEvent(body: Obj): NewItemEvent {
  const embyEvent = text(field(body, 'Event'));
  if (embyEvent !== undefined) {
    const item = object(field(body, 'Item'));
    const tmdb = field(object(field(item, 'ProviderIds')), 'Tmdb');
    return { sender: 'emby', event: embyEvent, ...itemFields(item, EMBY, tmdb) };
  }
  const jellyfinEvent = text(field(body, 'NotificationType'));
  if (jellyfinEvent !== undefined) {
    const tmdb = field(body, 'Provider_tmdb');
    return { sender: 'jellyfin', event: jellyfinEvent, ...itemFields(body, JELLYFIN, tmdb) };
  }
  return { sender: 'unknown', event: '' };
}
