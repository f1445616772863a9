// `/api/v3`: MoviePilot's Radarr/Sonarr emulation (keyed on tmdbId, FastAPI semantics), and a
// strict "real" Radarr or Sonarr (ASP.NET: case-insensitive paths, 201 on create, 400 with
// FluentValidation entries) for the `servarr` automation kind (spec 50 §4.2).
import type { MediaTypeCn } from './catalog.js';
import {
  detail,
  invalidJsonBody,
  jsonObject,
  type MpReply,
  type MpRequest,
  type Route,
} from './routing.js';
import type { MoviePilotState, ServarrItem } from './state.js';

export type ServarrFlavour = 'radarr' | 'sonarr';

const ok = (body: unknown, status = 200): MpReply => ({ status, body });

// ---- MoviePilot emulation -------------------------------------------------------------

function emulatedAdd(
  state: MoviePilotState,
  type: MediaTypeCn,
  body: Record<string, unknown>,
  season: number | null,
) {
  const tmdbid = Number(body.tmdbId);
  if (!Number.isInteger(tmdbid) || tmdbid <= 0) return { id: 0, message: '未识别到媒体信息' };
  const refusal = state.refused.get(tmdbid);
  if (refusal !== undefined) return { id: 0, message: refusal };
  const id = state.allocateId();
  state.subscriptions.push({
    id,
    name: String(body.title ?? ''),
    year: body.year === undefined || body.year === null ? null : String(body.year),
    type,
    tmdbid,
    season,
    username: 'Seerr',
    state: 'N',
    date: new Date().toISOString().slice(0, 19).replace('T', ' '),
  });
  return { id, message: '' };
}

function emulatedMovie(req: MpRequest, state: MoviePilotState): MpReply {
  const body = jsonObject(req);
  if (!body) return invalidJsonBody(req.body.value);
  const existing = state.subscriptions.find(
    (s) => s.type === '电影' && s.tmdbid === Number(body.tmdbId),
  );
  if (existing) return ok({ id: existing.id });
  const { id, message } = emulatedAdd(state, '电影', body, null);
  return id ? ok({ id }) : detail(500, `添加订阅失败：${message}`);
}

function emulatedSeries(req: MpRequest, state: MoviePilotState): MpReply {
  const body = jsonObject(req);
  if (!body) return invalidJsonBody(req.body.value);
  const seasons = (Array.isArray(body.seasons) ? body.seasons : []) as {
    seasonNumber?: number;
    monitored?: boolean;
  }[];
  const left = seasons.filter(
    (s) =>
      !state.subscriptions.some(
        (sub) => sub.tmdbid === Number(body.tmdbId) && sub.season === s.seasonNumber,
      ),
  );
  // MoviePilot answers a literal id 1 when every season is already subscribed.
  if (left.length === 0) return ok({ id: 1 });
  let result = { id: 0, message: '' };
  for (const season of left.filter((s) => s.monitored)) {
    result = emulatedAdd(state, '电视剧', body, season.seasonNumber ?? null);
  }
  return result.id ? ok({ id: result.id }) : detail(500, `添加订阅失败：${result.message}`);
}

const asArrItem =
  (type: MediaTypeCn) => (_r: MpRequest, _m: RegExpExecArray, state: MoviePilotState) =>
    ok(
      state.subscriptions
        .filter((s) => s.type === type)
        .map((s) => ({
          id: s.id,
          title: s.name,
          year: s.year === null ? 0 : Number(s.year),
          tmdbId: s.tmdbid,
          qualityProfileId: 1,
          monitored: true,
          ...(s.season === null ? {} : { seasons: [{ seasonNumber: s.season, monitored: true }] }),
        })),
    );

export const emulationRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/api\/v3\/system\/status$/,
    auth: 'apikey',
    handle: () =>
      ok({ appName: 'MoviePilot', instanceName: 'moviepilot', version: 'v2.5.9', urlBase: '' }),
  },
  {
    method: 'GET',
    pattern: /^\/api\/v3\/qualityProfile$/,
    auth: 'apikey',
    handle: () => ok([{ id: 1, name: '默认', upgradeAllowed: true, cutoff: 0 }]),
  },
  {
    method: 'GET',
    pattern: /^\/api\/v3\/rootfolder$/,
    auth: 'apikey',
    handle: () => ok([{ id: 1, path: '/', accessible: true, freeSpace: 0, unmappedFolders: [] }]),
  },
  {
    method: 'GET',
    pattern: /^\/api\/v3\/languageprofile$/,
    auth: 'apikey',
    handle: () => ok([{ id: 1, name: '默认' }]),
  },
  { method: 'GET', pattern: /^\/api\/v3\/movie$/, auth: 'apikey', handle: asArrItem('电影') },
  {
    method: 'POST',
    pattern: /^\/api\/v3\/movie$/,
    auth: 'apikey',
    handle: (req, _m, s) => emulatedMovie(req, s),
  },
  { method: 'GET', pattern: /^\/api\/v3\/series$/, auth: 'apikey', handle: asArrItem('电视剧') },
  {
    method: 'POST',
    pattern: /^\/api\/v3\/series$/,
    auth: 'apikey',
    handle: (req, _m, s) => emulatedSeries(req, s),
  },
];

// ---- Real Radarr / Sonarr -------------------------------------------------------------

const QUALITY_PROFILES = [
  { id: 1, name: 'Any' },
  { id: 4, name: 'HD-1080p' },
];

function failure(
  propertyName: string,
  errorMessage: string,
  attemptedValue: unknown,
  errorCode: string,
) {
  return {
    isWarning: false,
    propertyName,
    errorMessage,
    attemptedValue: attemptedValue ?? null,
    severity: 'error',
    errorCode,
    formattedMessageArguments: [],
    formattedMessagePlaceholderValues: {},
  };
}

function positive(body: Record<string, unknown>, field: string, label: string) {
  const value = Number(body[field] ?? 0);
  return Number.isInteger(value) && value > 0
    ? null
    : failure(
        field[0]!.toUpperCase() + field.slice(1),
        `'${label}' must be greater than '0'.`,
        body[field] ?? 0,
        'GreaterThanValidator',
      );
}

function addServarr(req: MpRequest, flavour: ServarrFlavour, state: MoviePilotState): MpReply {
  const body = jsonObject(req);
  if (!body)
    return {
      status: 400,
      body: [failure('', 'Request body is not a valid JSON object', null, 'JsonValidator')],
    };
  const key = flavour === 'radarr' ? 'tmdbId' : 'tvdbId';
  const list = flavour === 'radarr' ? state.servarrMovies : state.servarrSeries;
  const errors = [
    positive(body, key, flavour === 'radarr' ? 'Tmdb Id' : 'Tvdb Id'),
    positive(body, 'qualityProfileId', 'Quality Profile Id'),
    typeof body.title === 'string' && body.title !== ''
      ? null
      : failure('Title', "'Title' must not be empty.", body.title, 'NotEmptyValidator'),
    body.rootFolderPath || body.path
      ? null
      : failure('Path', "'Path' must not be empty.", null, 'NotEmptyValidator'),
  ].filter((e) => e !== null);
  const profile = Number(body.qualityProfileId);
  if (errors.length === 0 && !QUALITY_PROFILES.some((p) => p.id === profile)) {
    errors.push(
      failure(
        'QualityProfileId',
        'QualityProfile does not exist',
        profile,
        'QualityProfileExistsValidator',
      ),
    );
  }
  const duplicate = list.find((item) => item[key] === Number(body[key]));
  if (errors.length === 0 && duplicate) {
    const what = flavour === 'radarr' ? 'movie' : 'series';
    const code = flavour === 'radarr' ? 'MovieExistsValidator' : 'SeriesExistsValidator';
    errors.push(
      failure(
        key[0]!.toUpperCase() + key.slice(1),
        `This ${what} has already been added`,
        body[key],
        code,
      ),
    );
  }
  if (errors.length > 0) return { status: 400, body: errors };
  const item: ServarrItem = {
    ...body,
    id: state.allocateId(),
    title: String(body.title),
    path: String(body.path ?? `${String(body.rootFolderPath)}/${String(body.title)}`),
    added: new Date().toISOString(),
  };
  list.push(item);
  return ok(item, 201);
}

export function servarrRoutes(flavour: ServarrFlavour): Route[] {
  const resource = flavour === 'radarr' ? 'movie' : 'series';
  const root = flavour === 'radarr' ? '/movies' : '/tv';
  const route = (method: string, path: string, handle: Route['handle']): Route => ({
    method,
    pattern: new RegExp(`^/api/v3/${path}$`),
    auth: 'apikey',
    caseInsensitive: true,
    handle,
  });
  return [
    route('GET', 'system/status', () =>
      ok({
        appName: flavour === 'radarr' ? 'Radarr' : 'Sonarr',
        instanceName: flavour,
        version: flavour === 'radarr' ? '5.8.3.8933' : '4.0.9.2244',
        urlBase: '',
      }),
    ),
    route('GET', 'qualityprofile', () => ok(QUALITY_PROFILES)),
    route('GET', 'rootfolder', () =>
      ok([{ id: 1, path: root, accessible: true, freeSpace: 1e12, unmappedFolders: [] }]),
    ),
    route('GET', resource, (_r, _m, s) =>
      ok(flavour === 'radarr' ? s.servarrMovies : s.servarrSeries),
    ),
    route('POST', resource, (req, _m, s) => addServarr(req, flavour, s)),
  ];
}
