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

export function normaliseEvent(body: Obj): NewItemEvent {
  const embyEvent = text(field(body, 'Event'));
  if (embyEvent !== undefined) {
    const item = object(field(body, 'Item'));
    return {
      sender: 'emby',
      event: embyEvent,
      itemId: itemId(field(item, 'Id')),
      itemType: text(field(item, 'Type')),
      name: text(field(item, 'Name')),
      seriesId: itemId(field(item, 'SeriesId')),
      seriesName: text(field(item, 'SeriesName')),
      season: integer(field(item, 'ParentIndexNumber')),
      episode: integer(field(item, 'IndexNumber')),
      episodeEnd: integer(field(item, 'IndexNumberEnd')),
      itemTmdbId: positive(integer(field(object(field(item, 'ProviderIds')), 'Tmdb'))),
    };
  }
  const jellyfinEvent = text(field(body, 'NotificationType'));
  if (jellyfinEvent !== undefined) {
    return {
      sender: 'jellyfin',
      event: jellyfinEvent,
      itemId: itemId(field(body, 'ItemId')),
      itemType: text(field(body, 'ItemType')),
      name: text(field(body, 'Name')),
      seriesId: itemId(field(body, 'SeriesId')),
      seriesName: text(field(body, 'SeriesName')),
      season: integer(field(body, 'SeasonNumber')),
      episode: integer(field(body, 'EpisodeNumber')),
      episodeEnd: integer(field(body, 'EpisodeNumberEnd')),
      itemTmdbId: positive(integer(field(body, 'Provider_tmdb'))),
    };
  }
  return { sender: 'unknown', event: '' };
}
