// Credentials as each server reads them (50-integrations.md §1.3), AuthenticateByName and logout.
import { bodyObject, header, jellyfinError, noContent, ok, text } from './http.js';
import type { AuthLevel, Ctx, Query, Reply, Route } from './http.js';
import { findCaseInsensitive, lockoutThreshold } from './policy.js';
import { sessionDto } from './sessions.js';
import { endDeviceToken, findUserByName, hexId, randomToken } from './state.js';
import type {
  AuthInfo,
  ClientFields,
  FakeDevice,
  FakeSession,
  FakeUser,
  MediaState,
} from './types.js';
import { userDto } from './users.js';

/** Parses `MediaBrowser Client="x", Token="y"`; values are URL-encoded by well-behaved clients. */
export function parseAuthHeader(
  value: string | undefined,
): { scheme: string; fields: ClientFields } | undefined {
  const m = value === undefined ? null : /^\s*([A-Za-z]+)\s+(.*)$/s.exec(value);
  if (!m) return undefined;
  const raw: Record<string, string> = {};
  for (const pair of (m[2] ?? '').matchAll(/(\w+)\s*=\s*"([^"]*)"/g)) {
    raw[(pair[1] ?? '').toLowerCase()] = safeDecode(pair[2] ?? '');
  }
  return {
    scheme: m[1] ?? '',
    fields: {
      client: raw['client'],
      device: raw['device'],
      deviceId: raw['deviceid'],
      version: raw['version'],
      token: raw['token'],
    },
  };
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch (_err) {
    // A stray `%` in an un-encoded value: the servers keep such values verbatim.
    return v;
  }
}

type Headers = Ctx['headers'];

interface Candidate {
  token?: string;
  source: string;
  fields?: ClientFields;
  legacy: boolean;
}

/** Every credential form, in the order the servers consult them. */
function candidates(state: MediaState, headers: Headers, query: Query): Candidate[] {
  const out: Candidate[] = [];
  const authz = parseAuthHeader(header({ headers }, 'authorization'));
  if (authz && /^(mediabrowser|emby)$/i.test(authz.scheme)) {
    const legacy = state.flavour === 'jellyfin' && /^emby$/i.test(authz.scheme);
    out.push({
      token: authz.fields.token,
      source: `authorization:${authz.scheme}`,
      fields: authz.fields,
      legacy,
    });
  }
  const xEmby = parseAuthHeader(header({ headers }, 'x-emby-authorization'));
  if (xEmby)
    out.push({
      token: xEmby.fields.token,
      source: 'x-emby-authorization',
      fields: xEmby.fields,
      legacy: true,
    });
  for (const name of ['x-emby-token', 'x-mediabrowser-token']) {
    const v = header({ headers }, name);
    if (v) out.push({ token: v, source: name, legacy: true });
  }
  const apiKeyParam = query.get('api_key');
  if (apiKeyParam) out.push({ token: apiKeyParam, source: 'api_key', legacy: true });
  // `ApiKey=` is Jellyfin's non-legacy query form (§1.3); Emby never read it.
  const modern = query.get('ApiKey');
  if (modern && state.flavour === 'jellyfin' && !query.get('api_key')) {
    out.push({ token: modern, source: 'ApiKey', legacy: false });
  }
  // Emby prefers X-Emby-Authorization's client fields; Jellyfin prefers `Authorization`.
  if (state.flavour === 'emby') out.sort((a, b) => rank(a.source) - rank(b.source));
  return out;
}

function rank(source: string): number {
  return source === 'x-emby-authorization' ? 0 : 1;
}

export function resolveAuth(state: MediaState, headers: Headers, query: Query): AuthInfo {
  const all = candidates(state, headers, query);
  const usable = all.filter((c) => !c.legacy || state.legacyAuthorization);
  const info: AuthInfo = {
    kind: 'none',
    fields: usable.find((c) => c.fields)?.fields ?? {},
    ignoredLegacy: usable.length < all.length,
    isAdmin: false,
  };
  const withToken = usable.find((c) => c.token);
  if (!withToken?.token) return info;
  info.token = withToken.token;
  info.source = withToken.source;
  if (withToken.token === state.apiKey) {
    return { ...info, kind: 'apiKey', isAdmin: true };
  }
  const device = [...state.devices.values()].find((d) => d.token === withToken.token);
  const user = device ? state.users.get(device.userId) : undefined;
  if (!device || !user) return { ...info, kind: 'invalid' };
  return { ...info, kind: 'user', user, device, isAdmin: user.policy['IsAdministrator'] === true };
}

/** The 401/403 each server sends when a route's auth level is not met; null when allowed. */
export function checkAccess(ctx: Ctx, level: AuthLevel): Reply | null {
  if (level === 'anon') return null;
  const { auth, state } = ctx;
  if (auth.kind === 'none' || auth.kind === 'invalid') {
    // Jellyfin's authentication handler challenges with an empty 401 body (§1.3).
    return state.flavour === 'emby'
      ? text(401, 'Access token is invalid or expired.')
      : { status: 401 };
  }
  if (level === 'admin' && !auth.isAdmin) {
    return state.flavour === 'emby' ? text(403, 'Access denied') : { status: 403 };
  }
  if (auth.device) {
    auth.device.dateLastActivity = state.now();
    for (const s of state.sessions.values()) {
      if (s.deviceKey === auth.device.key) s.lastActivity = state.now();
    }
  }
  return null;
}

/** Jellyfin swaps the client identity for the token owner's when the header carries a token. */
function effectiveFields(ctx: Ctx): ClientFields {
  const f = { ...ctx.auth.fields };
  if (ctx.state.flavour !== 'jellyfin') return f;
  if (ctx.auth.kind === 'apiKey') {
    return { ...f, client: ctx.state.apiKeyName, deviceId: ctx.state.serverId };
  }
  if (ctx.auth.kind === 'user' && ctx.auth.device) {
    const d = ctx.auth.device;
    return { ...f, client: d.appName, deviceId: d.deviceId, device: d.name, version: d.appVersion };
  }
  return f;
}

function authFailed(state: MediaState, message: string, status: number): Reply {
  return state.flavour === 'emby' ? text(status, message) : jellyfinError(status);
}

function authenticateByName(ctx: Ctx): Reply {
  const { state } = ctx;
  const f = effectiveFields(ctx);
  const required =
    state.flavour === 'jellyfin'
      ? [f.client, f.device, f.deviceId, f.version]
      : [f.client, f.deviceId];
  if (required.some((v) => !v)) {
    return authFailed(state, 'Client and DeviceId are required in X-Emby-Authorization', 400);
  }
  const body = bodyObject(ctx) ?? {};
  const username = String(findCaseInsensitive(body, 'Username') ?? '');
  const pw = String(findCaseInsensitive(body, 'Pw') ?? '');
  const user = findUserByName(state, username);
  if (!user) return authFailed(state, 'Invalid username or password entered.', 401);
  if (user.policy['IsDisabled'] === true) {
    return authFailed(state, `The ${user.name} account is currently disabled.`, 403);
  }
  if (user.password !== pw) {
    if (state.flavour === 'jellyfin') registerFailedLogin(user);
    return authFailed(state, 'Invalid username or password entered.', 401);
  }
  user.policy['InvalidLoginAttemptCount'] = 0;
  const deviceKey = state.flavour === 'emby' ? `d:${f.deviceId}` : `d:${user.id}:${f.deviceId}`;
  const limit = Number(user.policy['MaxActiveSessions'] ?? 0);
  if (state.flavour === 'jellyfin' && limit > 0) {
    const others = [...state.sessions.values()].filter(
      (s) => s.userId === user.id && s.deviceKey !== deviceKey,
    );
    if (others.length >= limit) return jellyfinError(403);
  }
  const now = state.now();
  user.lastLoginDate = now;
  user.lastActivityDate = now;
  const session = openSession(ctx, user, deviceKey, f as Required<ClientFields>);
  const device = state.devices.get(deviceKey) as FakeDevice;
  return ok({
    User: userDto(state, user),
    SessionInfo: sessionDto(state, session),
    AccessToken: device.token,
    ServerId: state.serverId,
  });
}

function registerFailedLogin(user: FakeUser): void {
  const count = Number(user.policy['InvalidLoginAttemptCount'] ?? 0) + 1;
  user.policy['InvalidLoginAttemptCount'] = count;
  const threshold = lockoutThreshold(user.policy);
  if (threshold > 0 && count >= threshold) user.policy['IsDisabled'] = true;
}

/** A new token on every call; the same DeviceId replaces the previous token (§1.3). */
function openSession(
  ctx: Ctx,
  user: FakeUser,
  key: string,
  f: Required<ClientFields>,
): FakeSession {
  const { state } = ctx;
  const existing = state.devices.get(key);
  if (existing?.token) endDeviceToken(state, key);
  const prior = state.devices.get(key);
  const device: FakeDevice = {
    key,
    deviceId: f.deviceId,
    internalId: prior?.internalId ?? ++state.counters.device,
    name: f.device ?? f.client,
    appName: f.client,
    appVersion: f.version ?? '',
    userId: user.id,
    token: randomToken(),
    dateLastActivity: state.now(),
    ipAddress: ctx.remoteAddress,
  };
  state.devices.set(key, device);
  const session: FakeSession = {
    id: hexId(`session:${key}:${device.token}`),
    deviceKey: key,
    userId: user.id,
    lastActivity: state.now(),
    remoteEndPoint: ctx.remoteAddress,
  };
  state.sessions.set(session.id, session);
  return session;
}

function logout(ctx: Ctx): Reply {
  if (ctx.auth.device) endDeviceToken(ctx.state, ctx.auth.device.key);
  return noContent();
}

export const authRoutes: Route[] = [
  { method: 'POST', path: '/Users/AuthenticateByName', auth: 'anon', handler: authenticateByName },
  { method: 'POST', path: '/Sessions/Logout', auth: 'user', handler: logout },
];
