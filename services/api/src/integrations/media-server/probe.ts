// The media-server "test connection" checks of 30-settings.md §6: server, libraries, Playback
// Reporting and webhook. Messages are built here from our own wording, never from upstream
// bodies, so they cannot carry a key or token.
import { IntegrationError, redact, type IntegrationErrorKind } from '../errors.js';
import type { MediaServer } from './port.js';
import { normaliseId, PRODUCT_NAMES } from './port.js';
import { MINIMUM_VERSION } from './server-info.js';

export type CheckTarget = 'server' | 'libraries' | 'playback_reporting' | 'webhook';
export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface ConnectionCheck {
  target: CheckTarget;
  status: CheckStatus;
  message: string;
  /** The failure's kind when a call failed (the settings page translates it). */
  reason?: IntegrationErrorKind;
  latencyMs: number;
}

export interface ConnectionTestInput {
  /** `MEMBER_LIBRARY_IDS`: go into access lists, so they must be `Library.id` values. */
  memberLibraryIds: readonly string[];
  /** `RANKING_LIBRARY_IDS`. */
  rankingLibraryIds: readonly string[];
  /** Whether `MEDIA_SERVER_WEBHOOK_TOKEN` is set. */
  webhookTokenPresent: boolean;
}

type Outcome = { status: CheckStatus; message: string; reason?: IntegrationErrorKind };

async function timed(
  target: CheckTarget,
  run: () => Promise<Outcome>,
  onError: (err: unknown) => Outcome,
): Promise<ConnectionCheck> {
  const started = performance.now();
  const outcome = await run().catch(onError);
  const latencyMs = Math.round(performance.now() - started);
  return { target, ...outcome, message: redact(outcome.message), latencyMs };
}

/** Our own message for a failure; anything that is not an IntegrationError stays generic. */
function describe(err: unknown): string {
  if (!(err instanceof IntegrationError)) return 'The check failed unexpectedly';
  if (err.kind === 'auth' && err.status === 403) {
    return 'The media server refused the API key (HTTP 403: the key lacks administrator rights)';
  }
  return err.message;
}

const SKIPPED = 'Not checked: the server check failed';

/** Runs the four checks; `ok` for the whole test is "no check failed". */
export async function testMediaServerConnection(
  adapter: MediaServer,
  input: ConnectionTestInput,
): Promise<ConnectionCheck[]> {
  const failWith = (status: CheckStatus) => (err: unknown) => ({
    status,
    message: describe(err),
    ...(err instanceof IntegrationError ? { reason: err.kind } : {}),
  });
  const skip = (target: CheckTarget, status: CheckStatus): ConnectionCheck => ({
    target,
    status,
    message: SKIPPED,
    latencyMs: 0,
  });
  const server = await timed('server', () => serverCheck(adapter), failWith('fail'));
  // Without a server the other two would only repeat its failure.
  const reachable = server.status !== 'fail';
  const libraries = reachable
    ? await timed('libraries', () => librariesCheck(adapter, input), failWith('fail'))
    : skip('libraries', 'fail');
  const playback = reachable
    ? await timed(
        'playback_reporting',
        () => playbackCheck(adapter),
        (err) => ({
          status: 'warn',
          message: playbackWarning(err),
          ...(err instanceof IntegrationError ? { reason: err.kind } : {}),
        }),
      )
    : skip('playback_reporting', 'warn');
  return [server, libraries, playback, webhookCheck(input.webhookTokenPresent)];
}

async function serverCheck(adapter: MediaServer): Promise<Outcome> {
  const info = await adapter.probe();
  const product = PRODUCT_NAMES[info.product];
  const what = `${info.name} (${product} ${info.version})`;
  if (info.supported) return { status: 'ok', message: `Connected to ${what}` };
  const minimum = MINIMUM_VERSION[info.product].join('.');
  return {
    status: 'warn',
    message: `Connected to ${what}; Usher supports ${product} ${minimum} and later`,
  };
}

async function playbackCheck(adapter: MediaServer): Promise<Outcome> {
  const r = await adapter.playbackQuery('SELECT COUNT(*) AS plays FROM PlaybackActivity');
  const plays = r.rows[0]?.[0] ?? '0';
  return { status: 'ok', message: `Playback Reporting answered (${plays} plays recorded)` };
}

function webhookCheck(tokenPresent: boolean): ConnectionCheck {
  const message = tokenPresent
    ? 'The webhook token is set'
    : 'The webhook token is empty: new-item detection and the calendar "ready" state rely ' +
      'on the media-server webhook';
  return { target: 'webhook', status: tokenPresent ? 'ok' : 'warn', message, latencyMs: 0 };
}

function playbackWarning(err: unknown): string {
  const consequence = 'playback history, profiles and rankings are unavailable';
  if (err instanceof IntegrationError && err.kind === 'not_configured') {
    return `Playback Reporting plugin not installed: ${consequence}`;
  }
  return `${describe(err)}: ${consequence}`;
}

async function librariesCheck(adapter: MediaServer, input: ConnectionTestInput): Promise<Outcome> {
  const libraries = await adapter.libraries();
  const ids = new Set(libraries.map((l) => l.id));
  const problems: string[] = [];
  const unknownMember = input.memberLibraryIds.filter((id) => !ids.has(normaliseId(id)));
  if (unknownMember.length > 0) {
    problems.push(`unknown ids in MEMBER_LIBRARY_IDS: ${unknownMember.join(', ')}`);
    // The Emby trap (§8 risk 6): a numeric Id where the access list needs the Guid.
    for (const id of unknownMember) {
      const lib = libraries.find((l) => l.itemId === normaliseId(id) && l.id !== l.itemId);
      if (adapter.kind === 'emby' && lib) {
        problems.push(`${id} is the numeric id of "${lib.name}"; Emby needs its Guid ${lib.id}`);
      }
    }
  }
  const unknownRanking = input.rankingLibraryIds.filter((raw) => {
    const id = normaliseId(raw);
    return !libraries.some((l) => l.id === id || l.itemId === id);
  });
  if (unknownRanking.length > 0) {
    problems.push(`unknown ids in RANKING_LIBRARY_IDS: ${unknownRanking.join(', ')}`);
  }
  if (problems.length > 0) return { status: 'fail', message: capitalise(problems.join('; ')) };
  return { status: 'ok', message: `${libraries.length} libraries; every configured id exists` };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
