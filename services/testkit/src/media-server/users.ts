// User routes: create, read, list, password, policy, delete — with each server's own bodies.
import {
  badRequest,
  bodyObject,
  isoDate,
  jellyfinError,
  noContent,
  notFound,
  ok,
  problem,
  text,
  validationProblem,
} from './http.js';
import type { Ctx, Found, Reply, Route } from './http.js';
import { defaultPolicy, findCaseInsensitive, policyFromPost } from './policy.js';
import { findUserByName, nextGuid, normaliseId, revokeUserTokens } from './state.js';
import type { FakeUser, MediaState } from './types.js';

const EMBY_CONFIGURATION = {
  PlayDefaultAudioTrack: true,
  DisplayMissingEpisodes: false,
  SubtitleMode: 'Default',
  OrderedViews: [],
  LatestItemsExcludes: [],
  MyMediaExcludes: [],
  HidePlayedInLatest: true,
  HidePlayedInMoreLikeThis: false,
  HidePlayedInSuggestions: false,
  RememberAudioSelections: true,
  RememberSubtitleSelections: true,
  EnableNextEpisodeAutoPlay: true,
  ResumeRewindSeconds: 0,
  EnableLocalPassword: false,
};

const JELLYFIN_CONFIGURATION = {
  PlayDefaultAudioTrack: true,
  SubtitleLanguagePreference: '',
  DisplayMissingEpisodes: false,
  GroupedFolders: [],
  SubtitleMode: 'Default',
  DisplayCollectionsView: false,
  EnableLocalPassword: false,
  OrderedViews: [],
  LatestItemsExcludes: [],
  MyMediaExcludes: [],
  HidePlayedInLatest: true,
  RememberAudioSelections: true,
  RememberSubtitleSelections: true,
  EnableNextEpisodeAutoPlay: true,
  CastReceiverId: 'F007D354',
};

/** UserDto as each server serialises it; both omit null members such as a never-set login date. */
export function userDto(state: MediaState, user: FakeUser): Record<string, unknown> {
  const hasPassword = user.password !== '';
  const dto: Record<string, unknown> = {
    Name: user.name,
    ServerId: state.serverId,
    ...(state.flavour === 'jellyfin' ? { ServerName: state.serverName } : {}),
    ...(state.flavour === 'emby' ? { DateCreated: isoDate(user.dateCreated) } : {}),
    Id: user.id,
    HasPassword: hasPassword,
    HasConfiguredPassword: hasPassword,
    HasConfiguredEasyPassword: false,
    EnableAutoLogin: false,
  };
  if (user.lastLoginDate) dto['LastLoginDate'] = isoDate(user.lastLoginDate);
  if (user.lastActivityDate) dto['LastActivityDate'] = isoDate(user.lastActivityDate);
  dto['Configuration'] = structuredClone(
    state.flavour === 'emby' ? EMBY_CONFIGURATION : JELLYFIN_CONFIGURATION,
  );
  dto['Policy'] = structuredClone(user.policy);
  return dto;
}

/** Resolves a user id; Jellyfin rejects a non-GUID with a model-binding 400. */
function lookupUser(ctx: Ctx, raw: string | undefined, jellyfinMissing: Reply): Found<FakeUser> {
  const id = raw === undefined ? null : normaliseId(ctx.state, raw);
  if (id === null) {
    return { reply: validationProblem({ userId: [`The value '${raw}' is not valid.`] }) };
  }
  const user = ctx.state.users.get(id);
  if (user) return { found: user };
  return { reply: ctx.state.flavour === 'emby' ? notFound(ctx.state, 'User') : jellyfinMissing };
}

/** Jellyfin's GET answers NotFound("User not found"), a plain-text body. */
function userToRead(ctx: Ctx, raw: string | undefined): Found<FakeUser> {
  return lookupUser(ctx, raw, text(404, 'User not found'));
}

/** Jellyfin's write actions answer a bare NotFound(), i.e. problem+json. */
function userToWrite(ctx: Ctx, raw: string | undefined): Found<FakeUser> {
  return lookupUser(ctx, raw, problem(404));
}

// Jellyfin's ThrowIfInvalidUsername: word characters, space and -'._@+, no edge whitespace.
const JELLYFIN_NAME = /^(?!\s)[\p{L}\p{N}_ \-'.@+]+(?<!\s)$/u;

function createUser(ctx: Ctx): Reply {
  const { state } = ctx;
  const body = bodyObject(ctx) ?? {};
  const name = findCaseInsensitive(body, 'Name');
  if (typeof name !== 'string' || name.trim() === '') {
    return state.flavour === 'emby'
      ? text(400, 'Name is required')
      : validationProblem({ Name: ['The Name field is required.'] });
  }
  if (state.flavour === 'jellyfin' && !JELLYFIN_NAME.test(name)) return jellyfinError(400);
  if (findUserByName(state, name)) {
    return badRequest(state, `A user with the name '${name}' already exists.`);
  }
  // Emby's CreateUserByName has no password member: the password is a second call (§1.4).
  const pw = state.flavour === 'jellyfin' ? findCaseInsensitive(body, 'Password') : undefined;
  const user: FakeUser = {
    id: nextGuid(state, 'user'),
    name,
    password: typeof pw === 'string' ? pw : '',
    policy: defaultPolicy(state.flavour),
    dateCreated: state.now(),
  };
  state.users.set(user.id, user);
  return ok(userDto(state, user));
}

function getUser(ctx: Ctx): Reply {
  const lookup = userToRead(ctx, ctx.params['id']);
  if ('reply' in lookup) return lookup.reply;
  const user = lookup.found;
  if (!ctx.auth.isAdmin && ctx.auth.user?.id !== user.id) return forbidden(ctx);
  return ok(userDto(ctx.state, user));
}

/**
 * Jellyfin's `GET /Users/Me`, which every Jellyfin client (the official SDK included) calls after
 * logging in. An API key carries no user: the server answers a bare 400.
 */
function currentUser(ctx: Ctx): Reply {
  const user = ctx.auth.user;
  return user ? ok(userDto(ctx.state, user)) : problem(400);
}

function forbidden(ctx: Ctx): Reply {
  return ctx.state.flavour === 'emby' ? text(403, 'Access denied') : { status: 403 };
}

function filterUsers(ctx: Ctx): FakeUser[] {
  const hidden = ctx.query.bool('IsHidden');
  const disabled = ctx.query.bool('IsDisabled');
  return [...ctx.state.users.values()]
    .filter((u) => hidden === undefined || u.policy['IsHidden'] === hidden)
    .filter((u) => disabled === undefined || u.policy['IsDisabled'] === disabled)
    .sort((a, b) => a.name.localeCompare(b.name));
}

function queryUsers(ctx: Ctx): Reply {
  const all = filterUsers(ctx);
  const start = ctx.query.int('StartIndex') ?? 0;
  const limit = ctx.query.int('Limit');
  const page = all.slice(start, limit === undefined ? undefined : start + limit);
  return ok({ Items: page.map((u) => userDto(ctx.state, u)), TotalRecordCount: all.length });
}

function listUsers(ctx: Ctx): Reply {
  return ok(filterUsers(ctx).map((u) => userDto(ctx.state, u)));
}

/** Password change: admins (and the API key) need no current password; users must give theirs. */
function changePassword(ctx: Ctx, user: FakeUser): Reply {
  const body = bodyObject(ctx) ?? {};
  const self = ctx.auth.user?.id === user.id;
  if (!ctx.auth.isAdmin && !self) return forbidden(ctx);
  if (!ctx.auth.isAdmin) {
    const current =
      findCaseInsensitive(body, 'CurrentPw') ?? findCaseInsensitive(body, 'CurrentPassword');
    if ((current ?? '') !== user.password) return badRequest(ctx.state, 'Invalid user or password');
  }
  if (findCaseInsensitive(body, 'ResetPassword') === true) {
    user.password = '';
  } else {
    const next = findCaseInsensitive(body, 'NewPw');
    if (typeof next !== 'string') return badRequest(ctx.state, 'NewPw is required');
    user.password = next;
  }
  // Jellyfin ends every other session of the user (risk 4 of §8); Emby keeps them.
  if (ctx.state.flavour === 'jellyfin') revokeUserTokens(ctx.state, user.id, ctx.auth.token);
  return noContent();
}

function embyPassword(ctx: Ctx): Reply {
  const lookup = userToRead(ctx, ctx.params['id']);
  return 'reply' in lookup ? lookup.reply : changePassword(ctx, lookup.found);
}

function jellyfinPassword(ctx: Ctx): Reply {
  const raw = ctx.query.get('userId') ?? ctx.params['id'];
  if (raw === undefined) {
    if (!ctx.auth.user) return problem(404);
    return changePassword(ctx, ctx.auth.user);
  }
  const lookup = userToWrite(ctx, raw);
  return 'reply' in lookup ? lookup.reply : changePassword(ctx, lookup.found);
}

function countWhere(state: MediaState, pred: (u: FakeUser) => boolean): number {
  return [...state.users.values()].filter(pred).length;
}

function updatePolicy(ctx: Ctx): Reply {
  const { state } = ctx;
  const lookup = userToWrite(ctx, ctx.params['id']);
  if ('reply' in lookup) return lookup.reply;
  const user = lookup.found;
  const body = bodyObject(ctx);
  if (!body) return badRequest(state, 'A policy body is required');
  if (state.flavour === 'jellyfin') {
    const missing = ['AuthenticationProviderId', 'PasswordResetProviderId'].filter((k) => {
      const v = findCaseInsensitive(body, k);
      return typeof v !== 'string' || v === '';
    });
    if (missing.length > 0) {
      return validationProblem(
        Object.fromEntries(missing.map((k) => [k, [`The ${k} field is required.`]])),
      );
    }
    const wasAdmin = user.policy['IsAdministrator'] === true;
    const next = policyFromPost(state.flavour, body);
    if (wasAdmin && next['IsAdministrator'] !== true) {
      if (countWhere(state, (u) => u.policy['IsAdministrator'] === true) === 1) {
        return text(
          403,
          'There must be at least one user in the system with administrative access.',
        );
      }
    }
    if (next['IsDisabled'] === true && wasAdmin) {
      return text(403, 'Administrators cannot be disabled.');
    }
    if (next['IsDisabled'] === true && user.policy['IsDisabled'] !== true) {
      if (countWhere(state, (u) => u.policy['IsDisabled'] !== true) === 1) {
        return text(403, 'There must be at least one enabled user in the system.');
      }
      revokeUserTokens(state, user.id, ctx.auth.token);
    }
    user.policy = next;
    return noContent();
  }
  user.policy = policyFromPost(state.flavour, body);
  return noContent();
}

function deleteUser(ctx: Ctx): Reply {
  const lookup = userToWrite(ctx, ctx.params['id']);
  if ('reply' in lookup) return lookup.reply;
  const user = lookup.found;
  revokeUserTokens(ctx.state, user.id);
  for (const [key, d] of ctx.state.devices) if (d.userId === user.id) ctx.state.devices.delete(key);
  ctx.state.users.delete(user.id);
  return noContent();
}

function hasUsersQuery(state: MediaState): boolean {
  return state.flavour === 'emby' && Number.parseFloat(state.version) >= 4.8;
}

const JELLYFIN = ['jellyfin10', 'jellyfin12'] as const;

export const userRoutes: Route[] = [
  { method: 'POST', path: '/Users/New', auth: 'admin', handler: createUser },
  // Emby 4.8 documents only /Users/Query; older Emby (taken here as < 4.8) only the bare list.
  { method: 'GET', path: '/Users/Query', auth: 'admin', when: hasUsersQuery, handler: queryUsers },
  {
    method: 'GET',
    path: '/Users',
    auth: 'admin',
    when: (s) => !hasUsersQuery(s),
    handler: listUsers,
  },
  // Before /Users/{id}: "Me" would otherwise be read as a (malformed) user id.
  { method: 'GET', path: '/Users/Me', auth: 'user', modes: JELLYFIN, handler: currentUser },
  { method: 'GET', path: '/Users/{id}', auth: 'user', handler: getUser },
  {
    method: 'POST',
    path: '/Users/{id}/Password',
    auth: 'user',
    modes: ['emby'],
    handler: embyPassword,
  },
  {
    method: 'POST',
    path: '/Users/Password',
    auth: 'user',
    modes: JELLYFIN,
    handler: jellyfinPassword,
  },
  // 10.x still routes the obsolete path form; 12.0's OpenAPI no longer lists it.
  {
    method: 'POST',
    path: '/Users/{id}/Password',
    auth: 'user',
    modes: ['jellyfin10'],
    handler: jellyfinPassword,
  },
  { method: 'POST', path: '/Users/{id}/Policy', auth: 'admin', handler: updatePolicy },
  { method: 'DELETE', path: '/Users/{id}', auth: 'admin', handler: deleteUser },
  {
    method: 'POST',
    path: '/Users/{id}/Delete',
    auth: 'admin',
    modes: ['emby'],
    handler: deleteUser,
  },
];
