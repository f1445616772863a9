import { randomBytes } from 'node:crypto';
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { stopArgon2Threads } from './security/passwords.js';
import { bootstrapAdmin } from './bootstrap.js';
import { isCommand, runCli } from './cli/usher.js';
import { loadConfig, type Config } from './config/env.js';
import { connectPostgres, openPglite, type DatabaseHandle } from './db/client.js';
import {
  DataDirLockedError,
  describeHolder,
  lockDataDir,
  type DataDirLock,
} from './db/data-lock.js';
import { migrate } from './db/migrate.js';
import { migrationsFolder } from './db/migrations-folder.js';
import { createMetrics } from './metrics/registry.js';
import { InFlight } from './http/in-flight.js';
import { listenFailure, probePort } from './listen.js';
import { createLogger } from './logger.js';
import { tuneHeap } from './runtime/heap.js';
import { finishWork } from './shutdown.js';
import { VERSION } from './version.js';

const DRAIN_MS = 25_000;
/** How long a shutdown keeps accepting, so connections already queued are served, not reset. */
const ACCEPT_GRACE_MS = 1_000;
/** How often a draining server closes its idle connections. */
const IDLE_SWEEP_MS = 250;
/**
 * A request must arrive whole within 30 s and its headers within 10 s (Node's defaults, 300 s and
 * 60 s, let a slow client hold a connection for minutes; issue 16). Webhook bodies (≤ 5 MiB) and
 * the proxy's 60 s read timeout fit inside them.
 */
const SERVER_TIMEOUTS = {
  requestTimeout: 30_000,
  headersTimeout: 10_000,
  // How often Node looks for connections past those limits (default 30 s).
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * Takes the embedded database's folder for this process before anything reads it (one owner,
 * db/data-lock.ts), or exits 1 with one line naming the folder, the owner and what to do.
 */
function lockEmbeddedDatabase(
  dir: string,
  command: string,
  logger: ReturnType<typeof createLogger>,
): DataDirLock {
  try {
    return lockDataDir(dir, { command, logger });
  } catch (err) {
    // A live owner is the expected refusal; anything else (a read-only folder) stays a crash.
    if (!(err instanceof DataDirLockedError)) throw err;
    const holder = describeHolder(err);
    const stop = `stop it first (Ctrl-C where it runs, or \`kill ${err.owner.pid}\`)`;
    process.stderr.write(
      `Usher API not started: the embedded database in ${dir} is in use by ${holder}. ` +
        `Only one process may open it: ${stop}, or set PGLITE_DATA_DIR to another folder.\n`,
    );
    process.exit(1);
  }
}

/** Connects, retrying with back-off for up to 60 s (the database may start after us). */
async function connect(
  config: Config,
  logger: ReturnType<typeof createLogger>,
  lock: DataDirLock | undefined,
) {
  if (!config.DATABASE_URL) {
    const dir = resolve(config.PGLITE_DATA_DIR);
    logger.info({ dir }, 'using embedded PGlite database (DATABASE_URL is empty)');
    return openPglite(dir, { lock });
  }
  const handle = connectPostgres({
    url: config.DATABASE_URL,
    password: config.DATABASE_PASSWORD,
    poolMax: config.DATABASE_POOL_MAX,
  });
  const deadline = Date.now() + 60_000;
  for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
    try {
      await handle.ping(5000);
      return handle;
    } catch (err) {
      if (Date.now() > deadline) {
        await handle.close();
        throw err;
      }
      logger.warn({ err: (err as Error).message, retryInMs: delay }, 'database not reachable yet');
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

async function main(argv: string[]): Promise<void> {
  // `node main.js <command>`: the operator's `usher` tools (cli/usher.ts), not the server.
  if (argv[0] !== undefined && argv[0] !== 'api') {
    if (!isCommand(argv[0])) {
      process.stderr.write(`usher: unknown command "${argv[0]}" (try \`usher help\`)\n`);
      process.exit(2);
    }
    const code = await runCli({
      argv,
      env: process.env,
      migrationsFolder: migrationsFolder(),
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      interactive: Boolean(process.stdin.isTTY),
    });
    await stopArgon2Threads();
    process.exit(code);
  }
  const result = loadConfig(process.env, VERSION);
  if (!result.ok) {
    // One line per broken rule, naming the variable — never the value.
    for (const line of result.errors) process.stderr.write(`config error: ${line}\n`);
    process.stderr.write('Usher API not started: fix the configuration above (see .env.example)\n');
    process.exit(1);
  }
  const config = result.config;
  tuneHeap();
  const logger = createLogger(config.LOG_LEVEL);
  const replicaId = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;

  const command = 'api';
  // The embedded folder's lock first: a second `npm start` is told who runs, not that the port is
  // taken. Released by the handle's close or, on any exit path, by the lock's exit hook.
  const lock = config.DATABASE_URL
    ? undefined
    : lockEmbeddedDatabase(resolve(config.PGLITE_DATA_DIR), command, logger);
  {
    const busy = await probePort(config.PORT, config.HOST);
    const line = busy && listenFailure(busy, config.PORT, config.HOST);
    if (busy && !line) throw busy;
    if (line) {
      process.stderr.write(`Usher API not started: ${line}\n`);
      process.exit(1);
    }
  }

  let database: DatabaseHandle;
  try {
    database = await connect(config, logger, lock);
    const { applied } = await migrate(database.db, migrationsFolder(), logger);
    logger.info({ applied: applied.length }, 'database schema up to date');
  } catch (err) {
    logger.fatal({ err }, 'database setup failed');
    process.exit(1);
  }

  await bootstrapAdmin(database.db, { adminPassword: config.ADMIN_PASSWORD, logger });

  const metrics = createMetrics({ defaultMetrics: true });
  const { app, context } = createApp({
    config,
    database,
    logger,
    replicaId,
    metrics,
    settingsEnv: { ...process.env },
  });
  const scheduler = context.scheduler;
  const store = context.settings.store;
  if (await store.ensureWebhookToken()) logger.info('generated MEDIA_SERVER_WEBHOOK_TOKEN');
  const unreadable = await store.undecryptable();
  if (unreadable.length > 0) {
    // Names and reasons only: the operator re-enters these at /admin/settings (30-settings §8).
    logger.warn(
      { settings: unreadable },
      'stored settings cannot be decrypted with CONFIG_ENCRYPTION_KEY',
    );
  }
  const applyLogLevel = async () => {
    logger.level = await store.getString('LOG_LEVEL');
  };
  await applyLogLevel();
  store.onChange((keys) => {
    if (keys.includes('LOG_LEVEL')) void applyLogLevel();
  });
  const stopWatching = store.watch();

  const server: ServerType = serve(
    {
      fetch: app.fetch,
      port: config.PORT,
      hostname: config.HOST,
      serverOptions: { ...SERVER_TIMEOUTS },
    },
    (info) => {
      logger.info(
        { host: info.address, port: info.port, version: VERSION, replicaId },
        'Usher API listening',
      );
      void scheduler.start();
    },
  );
  const http = server as HttpServer;
  // Lost the race for the port after the probe: the same one line, with the database closed.
  http.once('error', (err: NodeJS.ErrnoException) => {
    const line = listenFailure(err, config.PORT, config.HOST);
    if (!line) throw err;
    process.stderr.write(`Usher API not started: ${line}\n`);
    // The scheduler starts only once listening; the settings watch is the one thing running.
    stopWatching();
    void database.close().finally(() => process.exit(1));
  });

  let stopping = false;
  // Replies not yet finished, so a shutdown can end their keep-alive connections with them. Not a
  // Set: its table churn kept every request alive through minor GCs (http/in-flight.ts).
  const inFlight = new InFlight<ServerResponse>();
  http.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    res.once('close', inFlight.add(res));
    // A request on an open keep-alive connection during the drain is the connection's last.
    if (stopping && !res.headersSent) res.setHeader('Connection', 'close');
  });
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new requests, draining');
    const force = setTimeout(() => {
      logger.warn('drain timed out; exiting');
      process.exit(0);
    }, DRAIN_MS);
    force.unref();
    // A keep-alive socket left idle by its last reply would hold close() open (and could carry
    // new requests) until its timeout: replies still being worked on say `Connection: close`, so
    // Node ends the socket with them; a reply already under way frees its socket when done and
    // the sweep below closes it.
    for (const res of inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    // Connections the kernel has queued but Node has not accepted yet are reset when the listener
    // closes, failing requests their clients had fully sent (the reliability suite saw 34 of 40
    // under load). So the listener stays open for ACCEPT_GRACE_MS, every request in that time is
    // answered with `Connection: close`, and only then does it close.
    setTimeout(() => {
      // close() stops accepting and calls back once every connection has closed.
      server.close(async () => {
        stopWatching();
        // Jobs, then work that outlived its reply and pushes to the bot: at most 10 s together.
        await finishWork(context);
        await stopArgon2Threads();
        await database.close();
        logger.info('stopped');
        clearTimeout(force);
        process.exit(0);
      });
      // A connection accepted just before the close whose request is not parsed yet counts as
      // idle: idle sockets are closed a moment later, and again until the server has closed.
      const sweep = setInterval(() => http.closeIdleConnections(), IDLE_SWEEP_MS);
      sweep.unref();
      http.once('close', () => clearInterval(sweep));
    }, ACCEPT_GRACE_MS);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
