/**
 * The Bot image (70-deploy.md §5, §8). Text rules for Dockerfile.bot, then the
 * container-equivalent smoke: scripts/image/assemble-bot.sh (the build stage), the runtime
 * stage's `npm ci` line read from Dockerfile.bot, then `node main.js` with only the image's ENV
 * plus test settings, as uid 1000 via setpriv, against the testkit's fake Bot API (run as its own
 * process) in webhook mode and in polling mode (PGlite behind pglite-socket as PostgreSQL).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { eventually } from '@usher/testkit';
import {
  DROP_PRIVILEGES_NEEDS,
  asAppArgs,
  assembleBotImage,
  botImageEnv,
  canDropPrivileges,
  readDockerfileBot,
  runAsApp,
  startFakeTelegramProcess,
  waitForCall,
  type BotImage,
  type FakeTelegramProcess,
} from './support/bot.js';
import { parseDockerfile } from './support/dockerfile.js';
import { accepts, exitWithin, freePort, waitForStatus, type Started } from './support/process.js';
import { ROOT, describeWhen } from './support/tools.js';

const text = readDockerfileBot();

describe('Dockerfile.bot specifics', () => {
  const { stages } = parseDockerfile(text);
  const final = stages.at(-1)!;

  it('should set BOT_PORT=8000, expose 8000 and run as uid 1000 with no data directory', () => {
    expect(text).toMatch(/^ENV NODE_ENV=production BOT_PORT=8000$/m);
    expect(text).toMatch(/^EXPOSE 8000$/m);
    expect(text).toMatch(/^USER 1000:1000$/m);
    expect(text).not.toMatch(/\/app\/data/);
    expect(
      final.some((i) => i.op === 'ENV' && /\bPORT=/.test(i.args.replace('BOT_PORT', ''))),
    ).toBe(false);
  });

  it('should use the same pinned Node base as Dockerfile.api', () => {
    const base = (file: string) =>
      /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(join(ROOT, file), 'utf8'))?.[1];
    expect(base('Dockerfile.bot')).toBe(base('Dockerfile.api'));
  });
});

const describeSmoke = (title: string, body: () => void) =>
  describeWhen(canDropPrivileges, title, DROP_PRIVILEGES_NEEDS, body);

describeSmoke('Bot image, container-equivalent smoke', () => {
  let tmp: string;
  let image: BotImage;
  let port: number;
  let fake: FakeTelegramProcess;
  let stopDb: () => Promise<void>;
  let databaseUrl: string;
  let server: Started | undefined;
  const webhookSecret = randomBytes(32).toString('hex');
  const internalSecret = randomBytes(32).toString('hex');

  /** The image's ENV plus what the test adds; nothing inherited. */
  const imageEnv = (extra: Record<string, string>) =>
    botImageEnv(port, {
      MESSENGER_BOT_TOKEN: fake.token,
      MESSENGER_WEBHOOK_SECRET: webhookSecret,
      INTERNAL_API_SECRET: internalSecret,
      MESSENGER_API_ROOT: fake.url,
      // No API runs here: settings fall back to their defaults and the Bot keeps serving.
      API_URL: 'http://127.0.0.1:9',
      ...extra,
    });
  const asApp = (env: Record<string, string>) => runAsApp(image, ['main.js'], env);
  const healthcheck = () =>
    spawnSync('setpriv', asAppArgs(image, ['healthcheck.mjs']), {
      cwd: image.app,
      env: { BOT_PORT: String(port), PATH: '/usr/bin:/bin' },
      timeout: 10_000,
    }).status;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'usher-bot-image-'));
    chmodSync(tmp, 0o755);
    image = assembleBotImage(tmp);
    port = await freePort();
    fake = await startFakeTelegramProcess(tmp);

    const db = await PGlite.create();
    // The API owns the bot's lease table (its migration 0011); the bot waits for it and never
    // creates it, so the database here has it as a migrated one would.
    await db.exec(
      readFileSync(join(ROOT, 'services/api/drizzle/0011_bot_leases.sql'), 'utf8').replaceAll(
        '--> statement-breakpoint',
        '',
      ),
    );
    const pgServer = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 10 });
    await pgServer.start();
    databaseUrl = `postgres://postgres@${pgServer.getServerConn()}/postgres`;
    stopDb = async () => {
      await pgServer.stop();
      await db.close();
    };
  }, 300_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    fake?.stop();
    await stopDb?.();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('should assemble main.js, healthcheck.mjs and the manifests, with production dependencies only', () => {
    for (const f of ['main.js', 'healthcheck.mjs', 'package.json', 'package-lock.json']) {
      expect(statSync(join(image.app, f)).isFile()).toBe(true);
    }
    const manifest = JSON.parse(readFileSync(join(image.app, 'package.json'), 'utf8'));
    const bot = JSON.parse(readFileSync(join(ROOT, 'services/bot/package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual(bot.dependencies);
    expect(manifest.devDependencies).toBeUndefined();
    const top = readdirSync(join(image.app, 'node_modules'));
    for (const dev of [
      'jest',
      'typescript',
      'nx',
      'esbuild',
      '@nx',
      '@swc',
      '@types',
      '@electric-sql',
    ]) {
      expect(top).not.toContain(dev);
    }
    expect(top).toContain('telegraf');
  });

  it('should exit 1 naming the variable, and open no port, without a token', async () => {
    const attempt = asApp(
      imageEnv({ MESSENGER_BOT_TOKEN: '', WEBHOOK_URL: 'https://bot.example.org' }),
    );
    expect(await exitWithin(attempt, 20_000)).toBe(1);
    expect(attempt.output()).toContain('config: MESSENGER_BOT_TOKEN is required');
    expect(await accepts(port)).toBe(false);
  });

  it('should start in webhook mode as uid 1000, register the webhook and pass healthcheck.mjs', async () => {
    server = asApp(imageEnv({ WEBHOOK_URL: 'http://127.0.0.1:8443' }));
    expect(await waitForStatus(`http://127.0.0.1:${port}/health`, 200, 60_000)).toBe(200);
    expect((await waitForCall(fake, 'setWebhook', 20_000))[0]?.params).toMatchObject({
      url: 'http://127.0.0.1:8443/messenger/webhook',
      secret_token: webhookSecret,
    });
    expect(healthcheck()).toBe(0);
    const refused = await fetch(`http://127.0.0.1:${port}/messenger/webhook`, {
      method: 'POST',
      body: '{}',
    });
    expect(refused.status).toBe(401);
  });

  it('should exit 0 within 25 s of SIGTERM, and healthcheck.mjs then exits 1', async () => {
    server!.child.kill('SIGTERM');
    expect(await exitWithin(server!, 25_000)).toBe(0);
    expect(healthcheck()).toBe(1);
  });

  it('should poll with the lease in polling mode and stop cleanly', async () => {
    server = asApp(imageEnv({ MESSENGER_UPDATE_MODE: 'polling', DATABASE_URL: databaseUrl }));
    expect(await waitForStatus(`http://127.0.0.1:${port}/health`, 200, 60_000)).toBe(200);
    await eventually(
      async () => {
        const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
          lease?: { held: boolean };
        };
        expect(health.lease).toMatchObject({ held: true });
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    server!.child.kill('SIGTERM');
    expect(await exitWithin(server!, 25_000)).toBe(0);
  });
});
