// Remote control of a client's session (both servers): `POST /Sessions/{Id}/Message` shows a
// message on the client, `POST /Sessions/{Id}/Playing/{Command}` sends it a playstate command.
// The fake records each message and command (`state.sessionCommands`) for tests to assert, and
// plays the client's part: on `Stop` the client stops, so the session loses its NowPlayingItem.
//
// Wire differences (OpenAPI in shared/data): Emby takes the message in the query (`Text`,
// `Header` required, `TimeoutMs`) — ServiceStack binds a JSON body's members as well — and
// answers 204 with an empty body; Jellyfin takes a JSON `MessageCommand` body (`Text` required,
// at least one character; `Header`, `TimeoutMs` optional) and answers 204. An unknown session is
// a 404 on both (Emby plain text, Jellyfin a problem body).
import { bodyObject, noContent, notFound, text, validationProblem } from './http.js';
import type { Ctx, Reply, Route } from './http.js';
import { findCaseInsensitive } from './policy.js';
import type { FakeSession, SessionCommand } from './types.js';

const PLAYSTATE_COMMANDS = [
  'Stop',
  'Pause',
  'Unpause',
  'NextTrack',
  'PreviousTrack',
  'Seek',
  'Rewind',
  'FastForward',
  'PlayPause',
] as const;

/** The session named in the path, if the caller may control it (a user only their own). */
function targetSession(ctx: Ctx): { session: FakeSession } | { reply: Reply } {
  const { state } = ctx;
  const raw = ctx.params['Id'] ?? '';
  const session = [...state.sessions.values()].find(
    (s) => s.id.toLowerCase() === raw.replace(/-/g, '').toLowerCase(),
  );
  if (!session || (!ctx.auth.isAdmin && session.userId !== ctx.auth.user?.id)) {
    return { reply: notFound(state, 'Session') };
  }
  return { session };
}

function record(ctx: Ctx, command: Omit<SessionCommand, 'at'>): void {
  ctx.state.sessionCommands.push({ ...command, at: ctx.state.now() });
}

function message(ctx: Ctx): Reply {
  const { state } = ctx;
  const body = bodyObject(ctx) ?? {};
  const pick = (name: string): unknown =>
    state.flavour === 'emby'
      ? (ctx.query.get(name) ?? findCaseInsensitive(body, name))
      : findCaseInsensitive(body, name);
  const textValue = pick('Text');
  const headerValue = pick('Header');
  const timeout = pick('TimeoutMs');
  if (typeof textValue !== 'string' || textValue === '') {
    return state.flavour === 'emby'
      ? text(400, 'Text is required')
      : validationProblem({ Text: ['The Text field is required.'] });
  }
  if (state.flavour === 'emby' && typeof headerValue !== 'string') {
    return text(400, 'Header is required');
  }
  const found = targetSession(ctx);
  if ('reply' in found) return found.reply;
  const timeoutMs = timeout === undefined || timeout === null ? undefined : Number(timeout);
  record(ctx, {
    sessionId: found.session.id,
    userId: found.session.userId,
    command: 'Message',
    text: textValue,
    ...(typeof headerValue === 'string' ? { header: headerValue } : {}),
    ...(timeoutMs !== undefined && Number.isFinite(timeoutMs) ? { timeoutMs } : {}),
  });
  return noContent();
}

function playstate(ctx: Ctx): Reply {
  const { state } = ctx;
  const raw = ctx.params['Command'] ?? '';
  const command = PLAYSTATE_COMMANDS.find((c) => c.toLowerCase() === raw.toLowerCase());
  if (!command) {
    return state.flavour === 'emby'
      ? text(400, `Requested value '${raw}' was not found.`)
      : validationProblem({ command: [`The value '${raw}' is not valid.`] });
  }
  const found = targetSession(ctx);
  if ('reply' in found) return found.reply;
  const { session } = found;
  record(ctx, { sessionId: session.id, userId: session.userId, command });
  // The client obeys: a stopped client reports no item; a paused one reports IsPaused.
  if (command === 'Stop') delete session.playing;
  else if (session.playing && (command === 'Pause' || command === 'Unpause')) {
    session.playing.isPaused = command === 'Pause';
  } else if (session.playing && command === 'PlayPause') {
    session.playing.isPaused = !session.playing.isPaused;
  }
  session.lastActivity = state.now();
  return noContent();
}

export const remoteControlRoutes: Route[] = [
  { method: 'POST', path: '/Sessions/{Id}/Message', auth: 'user', handler: message },
  { method: 'POST', path: '/Sessions/{Id}/Playing/{Command}', auth: 'user', handler: playstate },
];
