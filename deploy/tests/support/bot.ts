/**
 * The Bot image without a Docker engine (70-deploy.md §8): scripts/image/assemble-bot.sh (the
 * build stage), the runtime stage's `npm ci` line read from Dockerfile.bot, and `node main.js`
 * with only the image's ENV plus test settings, as uid 1000 via setpriv. Also the testkit's fake
 * Bot API as its own process, so the Bot talks to it over HTTP as it would to Telegram.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, linkSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@usher/testkit';
import { build } from 'esbuild';
import { start, type Started } from './process.js';
import { ROOT, onPath } from './tools.js';

export const APP_UID = 1000;

/** The image runs as uid 1000: the smoke needs root (to drop to it) and setpriv. */
export const canDropPrivileges = process.getuid?.() === 0 && Boolean(onPath('setpriv'));
export const DROP_PRIVILEGES_NEEDS = 'root and setpriv (to run as uid 1000)';

export function readDockerfileBot(): string {
  return readFileSync(join(ROOT, 'Dockerfile.bot'), 'utf8');
}

/** The runtime stage's install command, as Dockerfile.bot states it. */
export function runtimeInstallCommand(dockerfile = readDockerfileBot()): string[] {
  const line = dockerfile.split('\n').find((l) => /^RUN .*npm ci --omit=dev/.test(l));
  if (!line) throw new Error('Dockerfile.bot has no `RUN … npm ci --omit=dev` line');
  return line.slice(line.indexOf('npm ci')).split(/\s+/);
}

export interface BotImage {
  /** The image's /app: main.js, healthcheck.mjs, manifests, production node_modules. */
  app: string;
  /** This Node binary, in a folder uid 1000 can read (`tmp/bin/node`). */
  node: string;
}

/**
 * The Dockerfile's steps into `tmp/app`: assemble-bot.sh, then the runtime `npm ci`. `tmp` must
 * be readable by uid 1000 (mode 0755).
 */
export function assembleBotImage(tmp: string): BotImage {
  const app = join(tmp, 'app');
  const assembled = spawnSync(join(ROOT, 'scripts/image/assemble-bot.sh'), [app], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (assembled.status !== 0) throw new Error(`assemble-bot.sh failed:\n${assembled.stderr}`);
  const [npm, ...args] = runtimeInstallCommand();
  const installed = spawnSync(npm!, args, {
    cwd: app,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, npm_config_prefer_offline: 'true' },
  });
  if (installed.status !== 0) throw new Error(`${args.join(' ')} failed:\n${installed.stderr}`);
  mkdirSync(join(tmp, 'bin'));
  const node = join(tmp, 'bin/node');
  try {
    linkSync(process.execPath, node);
  } catch {
    // Another filesystem (no hard link possible): a copy does the same.
    copyFileSync(process.execPath, node);
  }
  chmodSync(node, 0o755);
  return { app, node };
}

/** The image's ENV (NODE_ENV, BOT_PORT, PATH) plus `settings`; nothing inherited. */
export function botImageEnv(port: number, settings: Record<string, string>) {
  return {
    NODE_ENV: 'production',
    BOT_PORT: String(port),
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    ...settings,
  };
}

/** setpriv's arguments for `node args…` as the image's uid 1000 (no supplementary groups). */
export function asAppArgs(image: BotImage, args: string[]): string[] {
  return [`--reuid=${APP_UID}`, `--regid=${APP_UID}`, '--clear-groups', '--', image.node, ...args];
}

/** Runs `node args…` in the app folder as uid 1000, with exactly `env`. */
export function runAsApp(image: BotImage, args: string[], env: Record<string, string>): Started {
  return start('setpriv', asAppArgs(image, args), image.app, env);
}

export interface TelegramCallRecord {
  method: string;
  params: Record<string, unknown>;
  status: number;
}

export interface FakeTelegramProcess {
  /** MESSENGER_API_ROOT for the Bot. */
  url: string;
  /** The only token the fake accepts (MESSENGER_BOT_TOKEN). */
  token: string;
  child: ChildProcess;
  /** Calls recorded by the fake (`GET /__fake/calls`), optionally only those of `method`. */
  calls: (method?: string) => Promise<TelegramCallRecord[]>;
  /** A request to the fake's `/__fake/*` control API; resolves with the JSON reply. */
  control: (method: string, path: string, body?: unknown) => Promise<unknown>;
  stop: () => void;
}

/** The testkit's fake Bot API (services/testkit/src/telegram) as its own process, bundled from source into `tmp`. */
export async function startFakeTelegramProcess(tmp: string): Promise<FakeTelegramProcess> {
  const script = join(tmp, 'fake-telegram.mjs');
  await build({
    stdin: {
      contents:
        "import { startFakeTelegram } from './services/testkit/src/telegram/index.ts';\n" +
        'const fake = await startFakeTelegram();\n' +
        'process.stdout.write(JSON.stringify({ url: fake.url, token: fake.token }) + "\\n");\n',
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString())),
  );
  const { url, token } = JSON.parse(first) as { url: string; token: string };
  const control = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${url}/__fake${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!reply.ok) throw new Error(`fake ${method} ${path}: ${reply.status} ${await reply.text()}`);
    return reply.json() as Promise<unknown>;
  };
  return {
    url,
    token,
    child,
    calls: async (method) =>
      ((await control('GET', '/calls')) as TelegramCallRecord[]).filter(
        (c) => method === undefined || c.method === method,
      ),
    control,
    stop: () => void child.kill('SIGTERM'),
  };
}

/** Polls the fake until `method` has been called, or the deadline passes. */
export async function waitForCall(
  fake: FakeTelegramProcess,
  method: string,
  timeoutMs: number,
): Promise<TelegramCallRecord[]> {
  let calls: TelegramCallRecord[] = [];
  const called = async () => {
    calls = await fake.calls(method);
    expect(calls).not.toHaveLength(0);
  };
  // None in time: the caller's assertion on the (empty) list reports it.
  await eventually(called, { timeoutMs, intervalMs: 100 }).catch(() => undefined);
  return calls;
}
