// Library and item queries: /Items, /Shows/{id}/Episodes, latest items, counts, media folders.
import { itemDto, libraryDto, parseFields } from './item-dto.js';
import { isoDate, notFound, ok, problem, text, validationProblem } from './http.js';
import type { Ctx, Found, Reply, Route } from './http.js';
import { normaliseId, parseGuid, userCanSee, visibleItems } from './state.js';
import type { FakeItem, FakeUser, MediaState, UserItemData } from './types.js';

/** `{Items,TotalRecordCount}`; Jellyfin's BaseItemDtoQueryResult also echoes `StartIndex`. */
function page(state: MediaState, items: unknown[], total: number, start: number): Reply {
  const body: Record<string, unknown> = { Items: items, TotalRecordCount: total };
  if (state.flavour === 'jellyfin') body['StartIndex'] = start;
  return ok(body);
}

/** The user a query runs as: Emby's path `{userId}`, else `UserId=`; undefined = no user. */
function queryUser(ctx: Ctx, raw: string | undefined): Found<FakeUser | undefined> {
  if (raw === undefined || raw === '') return { found: undefined };
  const id = normaliseId(ctx.state, raw);
  if (id === null) {
    return { reply: validationProblem({ userId: [`The value '${raw}' is not valid.`] }) };
  }
  const user = ctx.state.users.get(id);
  return user ? { found: user } : { reply: notFound(ctx.state, 'User') };
}

/** Items under a parent: a library holds movies and series, a series seasons, a season episodes. */
function underParent(state: MediaState, pool: FakeItem[], parentId: string, recursive: boolean) {
  if (state.libraries.has(parentId)) {
    return pool.filter((i) => i.libraryId === parentId && (recursive || i.parentId === parentId));
  }
  if (recursive) return pool.filter((i) => i.seriesId === parentId || i.seasonId === parentId);
  return pool.filter((i) => i.parentId === parentId);
}

const SORTERS: Record<string, (a: FakeItem, b: FakeItem) => number> = {
  sortname: (a, b) => a.name.localeCompare(b.name),
  datecreated: (a, b) => a.dateCreated.getTime() - b.dateCreated.getTime(),
  productionyear: (a, b) => (a.productionYear ?? 0) - (b.productionYear ?? 0),
  premieredate: (a, b) => (a.premiereDate?.getTime() ?? 0) - (b.premiereDate?.getTime() ?? 0),
};

function sortItems(ctx: Ctx, items: FakeItem[]): FakeItem[] {
  const keys = (ctx.query.list('SortBy') ?? ['SortName']).map((k) => k.toLowerCase());
  const desc = ctx.query.get('SortOrder')?.toLowerCase().startsWith('desc') === true;
  const sorted = [...items].sort((a, b) => {
    for (const k of keys) {
      const r = SORTERS[k]?.(a, b) ?? 0;
      if (r !== 0) return r;
    }
    return a.id.localeCompare(b.id);
  });
  return desc ? sorted.reverse() : sorted;
}

function matchesType(item: FakeItem, include?: string[], exclude?: string[]): boolean {
  const t = item.type.toLowerCase();
  if (include && !include.some((x) => x.toLowerCase() === t)) return false;
  return !exclude?.some((x) => x.toLowerCase() === t);
}

/** Emby's `AnyProviderIdEquals=tmdb.123,imdb.tt1`; Jellyfin has no such filter and ignores it. */
function anyProviderIdEquals(item: FakeItem, wanted: string[]): boolean {
  return wanted.some((w) => {
    const dot = w.indexOf('.');
    const provider = w.slice(0, dot).toLowerCase();
    const value = w.slice(dot + 1);
    return Object.entries(item.providerIds).some(
      ([k, v]) => k.toLowerCase() === provider && v === value,
    );
  });
}

function listItems(ctx: Ctx, userParam: string | undefined): Reply {
  const { state, query } = ctx;
  const lookup = queryUser(ctx, userParam);
  if ('reply' in lookup) return lookup.reply;
  const user = lookup.found;
  const ids = query.list('Ids');
  let wanted: string[] | undefined;
  if (ids) {
    const parsed = ids.map((id) => normaliseId(state, id));
    if (parsed.some((id) => id === null)) {
      return validationProblem({ ids: ['The value is not valid.'] });
    }
    wanted = parsed as string[];
  }
  const parentRaw = query.get('ParentId');
  const parentId = parentRaw === undefined ? undefined : normaliseId(state, parentRaw);
  const recursive = query.bool('Recursive') === true;
  let pool = visibleItems(state, user);
  const isMissing = query.bool('IsMissing');
  pool = pool.filter((i) =>
    isMissing === undefined
      ? i.locationType === 'FileSystem'
      : (i.locationType === 'Virtual') === isMissing,
  );
  if (wanted) pool = pool.filter((i) => (wanted as string[]).includes(i.id));
  else if (parentId) pool = underParent(state, pool, parentId, recursive);
  else if (!recursive) return rootFolders(ctx, user);
  pool = pool.filter((i) =>
    matchesType(i, query.list('IncludeItemTypes'), query.list('ExcludeItemTypes')),
  );
  const anyProvider = query.list('AnyProviderIdEquals');
  if (anyProvider && state.flavour === 'emby')
    pool = pool.filter((i) => anyProviderIdEquals(i, anyProvider));
  const hasTmdb = query.bool('HasTmdbId');
  if (hasTmdb !== undefined) pool = pool.filter((i) => 'Tmdb' in i.providerIds === hasTmdb);
  const term = query.get('SearchTerm')?.toLowerCase();
  if (term) {
    pool = pool.filter((i) => `${i.name} ${i.originalTitle ?? ''}`.toLowerCase().includes(term));
  }
  const sorted = sortItems(ctx, pool);
  const start = query.int('StartIndex') ?? 0;
  const limit = query.int('Limit');
  const slice = sorted.slice(start, limit === undefined ? undefined : start + limit);
  const fields = parseFields(query.list('Fields'));
  return page(
    state,
    slice.map((i) => itemDto(state, i, fields)),
    sorted.length,
    start,
  );
}

/** `/Items` without parent or recursion lists the top-level folders the caller may see. */
function rootFolders(ctx: Ctx, user: FakeUser | undefined): Reply {
  const libs = [...ctx.state.libraries.values()].filter((l) => userCanSee(ctx.state, user, l));
  return page(
    ctx.state,
    libs.map((l) => libraryDto(ctx.state, l)),
    libs.length,
    0,
  );
}

function mediaFolders(ctx: Ctx): Reply {
  const libs = [...ctx.state.libraries.values()];
  return page(
    ctx.state,
    libs.map((l) => libraryDto(ctx.state, l)),
    libs.length,
    0,
  );
}

function itemCounts(ctx: Ctx): Reply {
  const lookup = queryUser(ctx, ctx.query.get('UserId') ?? ctx.auth.user?.id);
  if ('reply' in lookup) return lookup.reply;
  const user = lookup.found;
  const items = visibleItems(ctx.state, user).filter((i) => i.locationType === 'FileSystem');
  const count = (t: string): number => items.filter((i) => i.type === t).length;
  const counts: Record<string, number> = {
    MovieCount: count('Movie'),
    SeriesCount: count('Series'),
    EpisodeCount: count('Episode'),
    ...(ctx.state.flavour === 'emby' ? { GameCount: 0, GameSystemCount: 0 } : {}),
    ArtistCount: 0,
    ProgramCount: 0,
    TrailerCount: 0,
    SongCount: 0,
    AlbumCount: 0,
    MusicVideoCount: 0,
    BoxSetCount: 0,
    BookCount: 0,
  };
  counts['ItemCount'] = counts['MovieCount']! + counts['SeriesCount']! + counts['EpisodeCount']!;
  return ok(counts);
}

/** Newest first; with GroupItems, several new episodes of one series collapse into the series. */
function latest(ctx: Ctx, userParam: string | undefined): Reply {
  const { state, query } = ctx;
  if (userParam === undefined || userParam === '') {
    // With an API key there is no "current user" to fall back to (§1.4).
    return state.flavour === 'emby' ? text(400, 'UserId is required') : problem(404);
  }
  const lookup = queryUser(ctx, userParam);
  if ('reply' in lookup) return lookup.reply;
  const user = lookup.found;
  let pool = visibleItems(state, user).filter(
    (i) => i.locationType === 'FileSystem' && (i.type === 'Movie' || i.type === 'Episode'),
  );
  const parentRaw = query.get('ParentId');
  if (parentRaw) pool = pool.filter((i) => i.libraryId === normaliseId(state, parentRaw));
  pool = pool.filter((i) => matchesType(i, query.list('IncludeItemTypes')));
  pool.sort((a, b) => b.dateCreated.getTime() - a.dateCreated.getTime());
  const group = query.bool('GroupItems') !== false;
  const groups = new Map<string, FakeItem[]>();
  for (const item of pool) {
    const key = group && item.type === 'Episode' && item.seriesId ? item.seriesId : item.id;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const fields = parseFields(query.list('Fields'));
  const limit = query.int('Limit') ?? 20;
  const out = [...groups.values()].slice(0, limit).map((members) => {
    const first = members[0] as FakeItem;
    const series = first.seriesId ? state.items.get(first.seriesId) : undefined;
    if (members.length > 1 && series) return itemDto(state, series, fields, members.length);
    return itemDto(state, first, fields);
  });
  return ok(out);
}

function episodes(ctx: Ctx): Reply {
  const { state, query } = ctx;
  const raw = ctx.params['id'] ?? '';
  const id = state.flavour === 'jellyfin' ? parseGuid(raw) : raw;
  const series = id === null ? undefined : state.items.get(id);
  if (!series || series.type !== 'Series') return notFound(state, 'Series');
  let eps = [...state.items.values()].filter(
    (i) => i.type === 'Episode' && i.seriesId === series.id,
  );
  const season = query.int('Season');
  if (season !== undefined) eps = eps.filter((e) => e.parentIndexNumber === season);
  const seasonId = query.get('SeasonId');
  if (seasonId) eps = eps.filter((e) => e.seasonId === normaliseId(state, seasonId));
  eps = eps.filter((e) => e.locationType === 'FileSystem' || includeMissing(ctx));
  eps.sort(
    (a, b) =>
      (a.parentIndexNumber ?? 0) - (b.parentIndexNumber ?? 0) ||
      (a.indexNumber ?? 0) - (b.indexNumber ?? 0),
  );
  const start = query.int('StartIndex') ?? 0;
  const limit = query.int('Limit');
  const slice = eps.slice(start, limit === undefined ? undefined : start + limit);
  const fields = parseFields(query.list('Fields'));
  return page(
    state,
    slice.map((e) => itemDto(state, e, fields)),
    eps.length,
    start,
  );
}

/**
 * Jellyfin lists virtual ("missing") episodes to an API key unless `IsMissing=false` (§8 risk 10);
 * a user session follows the user's DisplayMissingEpisodes (false by default). Emby 4.8 has no
 * `IsMissing` parameter on this route and never lists them.
 */
function includeMissing(ctx: Ctx): boolean {
  if (ctx.state.flavour === 'emby') return false;
  const flag = ctx.query.bool('IsMissing');
  if (flag !== undefined) return flag;
  return ctx.auth.kind === 'apiKey';
}

/** `UserData` as both servers render it (`UserItemDataDto`). */
function userDataDto(item: FakeItem, data: UserItemData): Record<string, unknown> {
  const runtime = item.runTimeTicks ?? 0;
  return {
    PlaybackPositionTicks: data.playbackPositionTicks,
    ...(runtime > 0 ? { PlayedPercentage: (data.playbackPositionTicks / runtime) * 100 } : {}),
    PlayCount: data.playCount,
    IsFavorite: false,
    LastPlayedDate: isoDate(data.lastPlayedDate),
    Played: data.played,
    Key: item.id,
  };
}

/**
 * "Continue watching": the user's videos with a resume position (started, not finished), most
 * recently played first — Emby's `/Users/{userId}/Items/Resume`, Jellyfin's `/UserItems/Resume`.
 * Both page with `StartIndex`/`Limit` and send `UserData` with every item.
 */
function resume(ctx: Ctx, rawUser: string | undefined): Reply {
  const { state, query } = ctx;
  if (rawUser === undefined || rawUser === '') {
    return validationProblem({ userId: ['The userId field is required.'] });
  }
  const who = queryUser(ctx, rawUser);
  if ('reply' in who) return who.reply;
  const user = who.found!;
  const data = user.userData ?? new Map<string, UserItemData>();
  // Every resumable item here is a video: `MediaTypes` without Video (Audio) lists nothing.
  const media = query.list('MediaTypes') ?? [];
  const videos = media.length === 0 || media.some((m) => m.toLowerCase() === 'video');
  const pool = visibleItems(state, user)
    .filter((i) => videos && i.locationType === 'FileSystem')
    .filter((i) => i.type === 'Movie' || i.type === 'Episode')
    .filter((i) => matchesType(i, query.list('IncludeItemTypes')))
    .flatMap((i) => {
      const d = data.get(i.id);
      return d && d.playbackPositionTicks > 0 && !d.played ? [{ item: i, data: d }] : [];
    })
    .sort((a, b) => b.data.lastPlayedDate.getTime() - a.data.lastPlayedDate.getTime());
  const start = query.int('StartIndex') ?? 0;
  const limit = query.int('Limit');
  const slice = pool.slice(start, limit === undefined ? undefined : start + limit);
  const fields = parseFields(query.list('Fields'));
  const withData = query.bool('EnableUserData') !== false;
  return page(
    state,
    slice.map(({ item, data: d }) => ({
      ...itemDto(state, item, fields),
      ...(withData ? { UserData: userDataDto(item, d) } : {}),
    })),
    pool.length,
    start,
  );
}

export const itemRoutes: Route[] = [
  {
    method: 'GET',
    path: '/Items',
    auth: 'user',
    // A user token runs the query as that user, as on both servers.
    handler: (c) => listItems(c, c.query.get('UserId') ?? c.auth.user?.id),
  },
  { method: 'GET', path: '/Items/Counts', auth: 'user', handler: itemCounts },
  { method: 'GET', path: '/Library/MediaFolders', auth: 'admin', handler: mediaFolders },
  { method: 'GET', path: '/Shows/{id}/Episodes', auth: 'user', handler: episodes },
  {
    method: 'GET',
    path: '/Items/Latest',
    auth: 'user',
    modes: ['jellyfin10', 'jellyfin12'],
    handler: (c) => latest(c, c.query.get('userId') ?? c.auth.user?.id),
  },
  {
    method: 'GET',
    path: '/Users/{userId}/Items/Latest',
    auth: 'user',
    modes: ['emby'],
    handler: (c) => latest(c, c.params['userId']),
  },
  {
    method: 'GET',
    path: '/Users/{userId}/Items',
    auth: 'user',
    modes: ['emby'],
    handler: (c) => listItems(c, c.params['userId']),
  },
  {
    method: 'GET',
    path: '/Users/{userId}/Items/Resume',
    auth: 'user',
    modes: ['emby'],
    handler: (c) => resume(c, c.params['userId']),
  },
  {
    method: 'GET',
    path: '/UserItems/Resume',
    auth: 'user',
    modes: ['jellyfin10', 'jellyfin12'],
    handler: (c) => resume(c, c.query.get('userId') ?? c.auth.user?.id),
  },
];
