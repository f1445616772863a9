import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FakeMediaServer,
  type FakeTmdb,
  playbackPluginDate,
  startFakeMediaServer,
  startFakeTmdb,
} from '@usher/testkit';
import { pollUntil } from './poll.js';

/** The real API, on a fresh embedded database, serving the production web build at `/`. */
export interface ApiStack {
  baseUrl: string;
  /** The bootstrap admin's one-time password, read from the API log. */
  temporaryPassword: string;
  /** Everything the API printed, for failure reports. */
  log: () => string;
  stop: () => Promise<void>;
}

const repoRoot = join(import.meta.dirname, '../../..');
export const WEB_DIST = join(repoRoot, 'web/dist/web/browser');
const API_MAIN = join(repoRoot, 'services/api/dist/main.js');
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The bootstrap password line is a pino JSON line; its message names user and password. */
const PASSWORD_LINE = /TEMPORARY PASSWORD for user "admin": (\S{20})/;

function waitForPassword(child: ChildProcess, output: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no TEMPORARY PASSWORD line in 60 s')), 60_000);
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        let message = line;
        try {
          message = String((JSON.parse(line) as { msg?: unknown }).msg ?? line);
        } catch {
          // Not JSON (a stray print): match the raw line.
        }
        const match = PASSWORD_LINE.exec(message);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      }
    });
    child.on('exit', (code) =>
      reject(new Error(`API exited early (${code}):\n${output.join('\n')}`)),
    );
  });
}

async function waitForHealth(baseUrl: string): Promise<void> {
  const healthy = await pollUntil(
    () =>
      fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false,
      ),
    (ok) => ok,
    { within: 60_000, every: 250 },
  );
  if (!healthy) throw new Error('API /health did not answer 200 within 60 s');
}

export interface ApiStackOptions {
  /**
   * Extra environment for the API: runtime settings through their same-name env fallbacks
   * (30-settings.md §1), such as the testkit media-server fake's URL and key.
   */
  env?: Record<string, string>;
}

export async function startApiStack(options: ApiStackOptions = {}): Promise<ApiStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'usher-e2e-db-'));
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, [API_MAIN], {
    cwd: repoRoot,
    env: {
      PATH: process.env['PATH'],
      NODE_ENV: 'production',
      PORT: String(port),
      PGLITE_DATA_DIR: dataDir,
      WEB_DIST_DIR: WEB_DIST,
      DATABASE_PASSWORD: hex(16),
      JWT_SECRET: hex(32),
      CONFIG_ENCRYPTION_KEY: hex(32),
      INTERNAL_API_SECRET: hex(32),
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const temporaryPassword = await waitForPassword(child, output);
    await waitForHealth(baseUrl);
    return { baseUrl, temporaryPassword, log: () => output.join('\n'), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The API configured for a seeded fake Emby (and the fake TMDB when asked for). */
export interface StackWithFakes {
  stack: ApiStack;
  media: FakeMediaServer;
  /** The fake Emby's API key, the one the API is configured with. */
  mediaKey: string;
  /** Present when started with `tmdb: true`. */
  tmdb?: FakeTmdb;
  /** Stops the API, then the fakes. */
  stop: () => Promise<void>;
}

/**
 * The seeded fake Emby (its demo library, members and playback), with the fake TMDB when asked
 * for, and the API pointed at them through the settings' env fallbacks (`env` adds more).
 */
export async function startStackWithFakes(
  options: { tmdb?: boolean; env?: Record<string, string> } = {},
): Promise<StackWithFakes> {
  const mediaKey = hex(16);
  const tmdb = options.tmdb ? await startFakeTmdb({ apiKey: hex(16) }) : undefined;
  let media: FakeMediaServer | undefined;
  try {
    media = await startFakeMediaServer({ flavour: 'emby', apiKey: mediaKey, seed: true });
    const stack = await startApiStack({
      env: {
        MEDIA_SERVER_KIND: 'emby',
        MEDIA_SERVER_URL: media.url,
        MEDIA_SERVER_API_KEY: mediaKey,
        // No CSP_IMG_EXTRA: the page's CSP must allow the configured image host by itself.
        ...(tmdb
          ? {
              TMDB_API_KEY: tmdb.apiKey,
              TMDB_API_BASE: tmdb.apiBase,
              TMDB_IMAGE_BASE: tmdb.imageBase,
            }
          : {}),
        ...options.env,
      },
    });
    const started = media;
    const stop = async () => {
      await stack.stop();
      await started.close();
      await tmdb?.close();
    };
    return { stack, media, mediaKey, ...(tmdb ? { tmdb } : {}), stop };
  } catch (error) {
    await media?.close();
    await tmdb?.close();
    throw error;
  }
}

/** What a play needs of a seeded film or episode. */
interface PlayedItem {
  id: string;
  type: string;
  name: string;
  seriesName?: string;
  parentIndexNumber?: number;
  indexNumber?: number;
}

const pad = (n: number | undefined) => String(n ?? 1).padStart(2, '0');

/**
 * One play as the fake Emby's Playback Reporting records it: local server time, and episodes
 * named `Severance - s01e02 - Title` like the plugin does.
 */
export function recordPlay(
  media: FakeMediaServer,
  play: {
    mediaUserId: string;
    item: PlayedItem;
    at: Date;
    seconds: number;
    method?: string;
    client?: string;
    device?: string;
  },
): void {
  const { item } = play;
  media.state.playback.insert({
    DateCreated: playbackPluginDate(play.at, media.state.timeZone),
    UserId: play.mediaUserId,
    ItemId: item.id,
    ItemType: item.type,
    ItemName:
      item.type === 'Episode'
        ? `${item.seriesName} - s${pad(item.parentIndexNumber)}e${pad(item.indexNumber)} - ${item.name}`
        : item.name,
    PlaybackMethod: play.method ?? 'DirectPlay',
    ClientName: play.client ?? 'Infuse',
    DeviceName: play.device ?? 'Living Room Apple TV',
    PlayDuration: play.seconds,
    PauseDuration: 0,
    RemoteAddress: '192.168.1.30',
    TranscodeReasons: '',
  });
}

/**
 * Ids of the fake's items that have no artwork: their signed poster URLs answer 404 and the page
 * shows the placeholder (docs/media.md), which Chromium logs as a failed resource.
 */
export function itemsWithoutArt(media: FakeMediaServer): string[] {
  return [...media.state.items.values()].filter((item) => !item.hasPrimaryImage).map((i) => i.id);
}
