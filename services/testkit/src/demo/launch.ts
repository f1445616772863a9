// `npm run demo`: every fake with the demo world, then the real Usher API (dist/main.js) on a
// fresh PGlite database wired to them, until Ctrl-C. scripts/demo.mjs bundles this file into
// .cache/ and calls runDemo(); nothing here runs on import.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Flavour } from '../media-server/types.js';
import { describeDemo, mailLines } from './banner.js';
import { startDemoFakes } from './fakes.js';
import type { DemoFakes } from './fakes.js';
import { advanceSessions } from './media.js';
import { DEFAULT_DEMO_SEED } from './world.js';

export interface DemoLaunchOptions {
  /** Repository root (where services/api/dist and web/dist live). */
  root: string;
  /** Defaults to process.env; reads PORT, DEMO_SEED, DEMO_MEDIA_SERVER, LOG_LEVEL, WEB_DIST_DIR. */
  env?: NodeJS.ProcessEnv;
  write?: (text: string) => void;
  /** When the demo command started (ms), so the ready line counts the build too. */
  startedAt?: number;
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

/** Whether the API could listen on `port` (all interfaces, as it does). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

async function waitForHealth(port: number, api: ChildProcess, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (api.exitCode !== null || api.signalCode !== null) {
      throw new Error(`the Usher API exited early (code ${api.exitCode ?? api.signalCode})`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.status === 200) return;
    } catch {
      // Not listening yet: migrations and bootstrap run before the port opens.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the Usher API did not answer /health within 60 s');
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
  const webDist = env.WEB_DIST_DIR || join(options.root, 'web/dist/web/browser');
  const serveWeb = existsSync(join(webDist, 'index.html'));

  // Checked first: /health from another program on the port would look like a running demo.
  if (!(await portIsFree(port))) {
    write(
      `Port ${port} is already in use. Stop what uses it, or pick another port: ` +
        'PORT=8081 npm run demo\n',
    );
    process.exit(1);
  }
  const fakes: DemoFakes = await startDemoFakes({ seed, flavour, usherUrl: url });
  const dataDir = mkdtempSync(join(tmpdir(), 'usher-demo-'));
  const password = adminPassword();
  // A minimal environment, so a developer's own DATABASE_URL or settings cannot leak in.
  const apiEnv: Record<string, string> = {
    PATH: env.PATH ?? '',
    ...(env.HOME ? { HOME: env.HOME } : {}),
    NODE_ENV: 'production',
    PORT: String(port),
    LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
    PGLITE_DATA_DIR: dataDir,
    ...freshSecrets(),
    ADMIN_PASSWORD: password,
    SITE_NAME: 'Usher Demo',
    ...(serveWeb ? { WEB_DIST_DIR: webDist } : {}),
    ...fakes.env,
  };
  const api = spawn(process.execPath, [join(options.root, 'services/api/dist/main.js')], {
    cwd: options.root,
    env: apiEnv,
    stdio: 'inherit',
  });
  const apiExited = new Promise<number | null>((r) => api.once('exit', (code) => r(code)));

  let printed = 0;
  const mailTimer = setInterval(() => {
    for (; printed < fakes.smtp.messages.length; printed++) {
      write(mailLines(fakes.smtp.messages[printed]!));
    }
  }, 300);
  const sessionTimer = setInterval(() => advanceSessions(fakes.mediaServer.state, 10), 10_000);
  let stopping = false;
  let stopAsked = 0;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    clearInterval(mailTimer);
    clearInterval(sessionTimer);
    if (api.exitCode === null && api.signalCode === null) {
      api.kill('SIGTERM');
      // The API drains for up to 25 s; a hard stop after that keeps Ctrl-C meaningful.
      const force = setTimeout(() => api.kill('SIGKILL'), 30_000);
      await apiExited;
      clearTimeout(force);
    }
    await fakes.close();
    rmSync(dataDir, { recursive: true, force: true });
    write('Usher demo stopped.\n');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      // Under `npm run demo` one Ctrl-C arrives twice (from the terminal and forwarded by npm);
      // only a later one means "now" and skips the API's drain.
      if (stopping) {
        if (Date.now() - stopAsked > 2000) api.kill('SIGKILL');
        return;
      }
      stopAsked = Date.now();
      write(`\nStopping the demo (${signal})…\n`);
      void stop(0);
    });
  }
  void apiExited.then((code) => {
    if (stopping) return;
    write(`The Usher API exited on its own (code ${code}); stopping the fakes.\n`);
    void stop(code === 0 ? 1 : (code ?? 1));
  });

  try {
    await waitForHealth(port, api, Date.now() + 60_000);
  } catch (err) {
    write(`${err instanceof Error ? err.message : String(err)}\n`);
    await stop(1);
    return;
  }
  write(
    describeDemo({
      url,
      password,
      dataDir,
      webDist: serveWeb ? webDist : undefined,
      fakes,
      seconds: (Date.now() - started) / 1000,
    }),
  );
}
