// The Usher bot (services/bot/dist/main.js, built by its package's build.mjs) on the Telegram
// fake, in webhook mode: the fake accepts a plain-http webhook on loopback and delivers the
// updates pushed through its control API (`POST /__fake/updates`) to the bot, as Telegram would.
// No internet and no database are needed (polling mode would want PostgreSQL for its lease).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DemoFakes } from './fakes.js';
import { hasExited, waitForHealth } from './processes.js';

export interface DemoBotOptions {
  root: string;
  fakes: DemoFakes;
  /** Where the bot reaches the API (its internal routes). */
  apiUrl: string;
  port: number;
  internalSecret: string;
  logLevel: string;
  /** Minimal base environment (PATH, HOME). */
  baseEnv: Record<string, string>;
}

export interface DemoBot {
  child: ChildProcess;
  /** Where the API pushes events (BOT_NOTIFY_URL). */
  url: string;
  /** True once the bot answers /health and its webhook is set on the fake; false if it failed. */
  ready: Promise<boolean>;
  /** Why it is not ready, when `ready` resolved false. */
  problem(): string | undefined;
}

const BOT_LEVELS = ['debug', 'info', 'warn', 'error'];

export function startDemoBot(options: DemoBotOptions): DemoBot {
  const { fakes, port } = options;
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(options.root, 'services/bot/dist/main.js')], {
    cwd: options.root,
    env: {
      ...options.baseEnv,
      NODE_ENV: 'production',
      LOG_LEVEL: BOT_LEVELS.includes(options.logLevel) ? options.logLevel : 'warn',
      ...fakes.botEnv,
      MESSENGER_WEBHOOK_SECRET: randomBytes(24).toString('base64url'),
      INTERNAL_API_SECRET: options.internalSecret,
      MESSENGER_UPDATE_MODE: 'webhook',
      WEBHOOK_URL: url,
      API_URL: options.apiUrl,
      BOT_PORT: String(port),
      BOT_LANGUAGE: 'en',
      ...(fakes.env.MESSENGER_ADMIN_CHAT_ID
        ? { MESSENGER_ADMIN_CHAT_ID: fakes.env.MESSENGER_ADMIN_CHAT_ID }
        : {}),
      ...(fakes.env.MESSENGER_GROUP_CHAT_ID
        ? { MESSENGER_GROUP_CHAT_ID: fakes.env.MESSENGER_GROUP_CHAT_ID }
        : {}),
    },
    stdio: 'inherit',
  });
  let problem: string | undefined;
  const webhookSet = () => fakes.telegram.state.webhook?.url.startsWith(url) === true;
  const ready = waitForHealth('the bot', `${url}/health`, child, Date.now() + 30_000, webhookSet)
    .then(() => true)
    .catch((err: unknown) => {
      problem = err instanceof Error ? err.message : String(err);
      if (!hasExited(child)) child.kill('SIGTERM');
      return false;
    });
  return { child, url, ready, problem: () => problem };
}
