// `npm run demo`: every fake with the demo world, the real Usher API (dist/main.js) on a fresh
// PGlite database wired to them and serving the web app, the real bot (services/bot/dist) on the
// Telegram fake, and Usher's own data seeded through the API (seed-usher.ts), until Ctrl-C.
// scripts/demo.mjs builds what is needed, bundles this file into .cache/ and calls runDemo();
// nothing here runs on import.
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Flavour } from '../media-server/types.js';
import { describeDemo, mailLines, telegramLines } from './banner.js';
import type { BannerInput } from './banner.js';
import { startDemoBot } from './bot.js';
import type { DemoBot } from './bot.js';
import { startDemoFakes } from './fakes.js';
import type { DemoFakes } from './fakes.js';
import { advanceSessions } from './media.js';
import { freePort, portIsFree, stopChild, waitForHealth } from './processes.js';
import { planUsherSeed } from './seed-plan.js';
import { seedUsher } from './seed-usher.js';
import type { SeededUsher } from './seed-usher.js';
import { DEFAULT_DEMO_SEED } from './world.js';

export interface DemoLaunchOptions {
  /** Repository root (where services/api/dist, services/bot/dist and web/dist live). */
  root: string;
  /** Defaults to process.env; reads PORT, DEMO_SEED, DEMO_MEDIA_SERVER, LOG_LEVEL, WEB_DIST_DIR. */
  env?: NodeJS.ProcessEnv;
  write?: (text: string) => void;
  /** When the demo command started (ms), so the ready line counts the build too. */
  startedAt?: number;
  /**
   * The built web app to serve at /: a folder, or null for the API only. Undefined: WEB_DIST_DIR,
   * else web/dist/web/browser, when it holds an index.html.
   */
  webDist?: string | null;
  /** Whether to start the bot (when services/bot/dist/main.js exists); default true. */
  bot?: boolean;
}

const READABLE = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Four groups of four, easy to type from the terminal; 8–128 characters as the policy wants. */
function adminPassword(): string {
  const group = () =>
    Array.from({ length: 4 }, () => READABLE[randomInt(READABLE.length)]).join('');
  return [group(), group(), group(), group()].join('-');
}

/** The four required secrets (70-deploy §3), fresh for every run. */
function freshSecrets(): Record<string, string> {
  return {
    DATABASE_PASSWORD: randomBytes(16).toString('hex'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    CONFIG_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    INTERNAL_API_SECRET: randomBytes(32).toString('hex'),
  };
}

function chatNamer(fakes: DemoFakes) {
  return (id: number) => {
    const chat = fakes.telegram.state.chats.get(id);
    const name = chat?.title ?? chat?.first_name;
    return name ? `${name} (${id})` : String(id);
  };
}

export async function runDemo(options: DemoLaunchOptions): Promise<void> {
  const started = options.startedAt ?? Date.now();
  const env = options.env ?? process.env;
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const port = Number(env.PORT ?? 8080);
  const seed = Number(env.DEMO_SEED ?? DEFAULT_DEMO_SEED);
  if (!Number.isInteger(port) || port < 1 || port > 65535 || !Number.isSafeInteger(seed)) {
    write('PORT must be a port number (1–65535) and DEMO_SEED an integer.\n');
    process.exit(1);
  }
  const flavour: Flavour = env.DEMO_MEDIA_SERVER === 'emby' ? 'emby' : 'jellyfin';
  const url = `http://localhost:${port}`;
  const apiUrl = `http://127.0.0.1:${port}`;
  const webCandidate =
    options.webDist === null
      ? undefined
      : (options.webDist ?? (env.WEB_DIST_DIR || join(options.root, 'web/dist/web/browser')));
  const webDist =
    webCandidate && existsSync(join(webCandidate, 'index.html')) ? webCandidate : undefined;
  const botMain = join(options.root, 'services/bot/dist/main.js');
  const withBot = options.bot !== false && existsSync(botMain);

  // Checked first: /health from another program on the port would look like a running demo.
  if (!(await portIsFree(port))) {
    write(
      `Port ${port} is already in use. Stop what uses it, or pick another port: ` +
        'PORT=8081 npm run demo\n',
    );
    process.exit(1);
  }
  const fakes: DemoFakes = await startDemoFakes({ seed, flavour, usherUrl: url });
  const plan = planUsherSeed(fakes.world);
  const dataDir = mkdtempSync(join(tmpdir(), 'usher-demo-'));
  const bootstrapPassword = adminPassword();
  const secrets = freshSecrets();
  const botPort = withBot ? await freePort() : undefined;
  const logLevel = env.LOG_LEVEL ?? 'warn';
  // A minimal environment, so a developer's own DATABASE_URL or settings cannot leak in.
  const baseEnv: Record<string, string> = {
    PATH: env.PATH ?? '',
    ...(env.HOME ? { HOME: env.HOME } : {}),
  };
  const apiEnv: Record<string, string> = {
    ...baseEnv,
    NODE_ENV: 'production',
    PORT: String(port),
    LOG_LEVEL: logLevel,
    PGLITE_DATA_DIR: dataDir,
    ...secrets,
    ADMIN_PASSWORD: bootstrapPassword,
    SITE_NAME: 'Usher Demo',
    ...(webDist ? { WEB_DIST_DIR: webDist } : {}),
    ...(botPort ? { BOT_NOTIFY_URL: `http://127.0.0.1:${botPort}` } : {}),
    ...fakes.env,
  };
  const api = spawn(process.execPath, [join(options.root, 'services/api/dist/main.js')], {
    cwd: options.root,
    env: apiEnv,
    stdio: 'inherit',
  });
  const apiExited = new Promise<number | null>((r) => api.once('exit', (code) => r(code)));
  let bot: DemoBot | undefined;

  const timers: NodeJS.Timeout[] = [];
  let stopping = false;
  let stopAsked = 0;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const timer of timers) clearInterval(timer);
    // The API drains for up to 25 s and the bot for 10 s; a hard stop after that keeps Ctrl-C
    // meaningful.
    await Promise.all([stopChild(api, 30_000), bot ? stopChild(bot.child, 15_000) : undefined]);
    await fakes.close();
    rmSync(dataDir, { recursive: true, force: true });
    write('Usher demo stopped.\n');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      // Under `npm run demo` one Ctrl-C arrives twice (from the terminal and forwarded by npm);
      // only a later one means "now" and skips the drains.
      if (stopping) {
        if (Date.now() - stopAsked > 2000) {
          api.kill('SIGKILL');
          bot?.child.kill('SIGKILL');
        }
        return;
      }
      stopAsked = Date.now();
      write(`\nStopping the demo (${signal})…\n`);
      void stop(0);
    });
  }
  void apiExited.then((code) => {
    if (stopping) return;
    write(`The Usher API exited on its own (code ${code}); stopping the rest.\n`);
    void stop(code === 0 ? 1 : (code ?? 1));
  });

  let seeded: SeededUsher;
  try {
    await waitForHealth('the Usher API', `${apiUrl}/health`, api, Date.now() + 90_000);
    write('Seeding Usher through its API (members, codes, requests)…\n');
    seeded = await seedUsher({
      apiUrl,
      bootstrapPassword,
      adminPassword: adminPassword(),
      fakes,
      plan,
      startBot: () => {
        if (!withBot || !botPort) return Promise.resolve(false);
        bot = startDemoBot({
          root: options.root,
          fakes,
          apiUrl,
          port: botPort,
          internalSecret: secrets.INTERNAL_API_SECRET!,
          logLevel,
          baseEnv,
        });
        bot.child.once('exit', (code) => {
          if (!stopping)
            write(`The bot exited (code ${code}); the rest of the demo keeps running.\n`);
        });
        return bot.ready;
      },
    });
  } catch (err) {
    write(`The demo could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    await stop(1);
    return;
  }

  const botState: BannerInput['bot'] = !bot
    ? undefined
    : (await bot.ready)
      ? { url: bot.url }
      : { problem: bot.problem() ?? 'unknown problem' };
  write(
    describeDemo({
      url,
      seeded,
      dataDir,
      webDist,
      fakes,
      bot: botState,
      seconds: (Date.now() - started) / 1000,
    }),
  );

  // From here on, what the fakes capture is news: mail, and what the bot says on Telegram.
  let mailed = fakes.smtp.messages.length;
  let called = fakes.telegram.calls.length;
  const chatName = chatNamer(fakes);
  timers.push(
    setInterval(() => {
      for (; mailed < fakes.smtp.messages.length; mailed++) {
        write(mailLines(fakes.smtp.messages[mailed]!));
      }
      // `DELETE /__fake/calls` empties the list: start again from its new end.
      called = Math.min(called, fakes.telegram.calls.length);
      for (; called < fakes.telegram.calls.length; called++) {
        write(telegramLines(fakes.telegram.calls[called]!, chatName));
      }
    }, 300),
    setInterval(() => advanceSessions(fakes.mediaServer.state, 10), 10_000),
  );
}
