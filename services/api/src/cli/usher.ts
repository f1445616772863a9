// `usher <command>` (issue 32; docs/operations.md "The usher command"): the operator's tools, run
// by the API bundle itself (`node main.js <command>`, `usher <command>` in the image,
// `npm run usher -- <command>` on a source install) with the API's own environment. Each command
// prints what it did on stdout, or one line `usher <command>: <what is wrong>` on stderr and
// exits non-zero.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { createBackup, restoreBackup } from '../backup/backup.js';
import { BackupFileError, verifyBackup } from '../backup/format.js';
import { backupFileName, pruneBackups } from '../backup/files.js';
import { resetAdminPassword } from '../bootstrap.js';
import { loadConfig, type Config } from '../config/env.js';
import { connectPostgres, openPglite, type DatabaseHandle } from '../db/client.js';
import {
  DataDirLockedError,
  describeHolder,
  lockDataDir,
  type DataDirLock,
} from '../db/data-lock.js';
import { appliedMigrations, knownMigrations, migrate } from '../db/migrate.js';
import { queryRows } from '../db/sql.js';
import { createMediaServer, readMediaServerConfig } from '../integrations/media-server/factory.js';
import { createLogger } from '../logger.js';
import { SettingsCipher } from '../settings-store/crypto.js';
import { SettingsStore } from '../settings-store/store.js';
import { VERSION } from '../version.js';

export const COMMANDS = [
  'backup',
  'restore',
  'reset-admin-password',
  'migrate',
  'check',
  'version',
  'help',
] as const;
export type Command = (typeof COMMANDS)[number];

export const isCommand = (value: string | undefined): value is Command =>
  (COMMANDS as readonly string[]).includes(value ?? '');

const USAGE = `usage: usher <command>
  backup [--out FILE] [--keep N]
                               write a backup file (default: BACKUP_DIR/usher-<time>.usher-backup.gz);
                               --keep: then delete all but the newest N backup files there
  restore FILE [--yes]         replace the database's content with FILE (checked first)
  reset-admin-password [--username NAME]
                               print a new temporary password for an administrator
  migrate                      apply pending database migrations
  check                        environment, database, schema, settings, media server
  version                      the app version and the schema it expects
`;

/** A refusal the operator can act on: printed as one line, exit code 1. */
class CommandError extends Error {}

export interface CliContext {
  argv: string[];
  env: Record<string, string | undefined>;
  migrationsFolder: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether a person can answer a question on stdin. */
  interactive: boolean;
}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  if (!value || value.startsWith('--')) throw new CommandError(`${name} needs a value`);
  return value;
}

/** Runs one command; resolves to the process exit code. */
export async function runCli(ctx: CliContext): Promise<number> {
  const [command, ...args] = ctx.argv as [Command, ...string[]];
  try {
    switch (command) {
      case 'help':
        ctx.stdout(USAGE);
        return 0;
      case 'version':
        ctx.stdout(
          `usher ${VERSION} (schema ${knownMigrations(ctx.migrationsFolder).at(-1)?.tag})\n`,
        );
        return 0;
      default:
        return await withDatabase(ctx, command, args);
    }
  } catch (err) {
    if (err instanceof CommandError || err instanceof BackupFileError) {
      ctx.stderr(`usher ${command}: ${err.message}\n`);
      return 1;
    }
    ctx.stderr(`usher ${command}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

function configOrExit(ctx: CliContext, command: string): Config {
  const result = loadConfig(ctx.env, VERSION);
  if (!result.ok) {
    for (const line of result.errors) ctx.stderr(`config error: ${line}\n`);
    throw new CommandError('the environment is not valid (lines above; see .env.example)');
  }
  void command;
  return result.config;
}

/** Takes the embedded folder for this command, or refuses with "stop it first". */
function lockEmbedded(dir: string, command: string, logger: Logger): DataDirLock {
  try {
    return lockDataDir(dir, { command, logger });
  } catch (err) {
    // A live owner is the expected refusal; anything else (a read-only folder) is a failure.
    if (!(err instanceof DataDirLockedError)) throw err;
    const stop = `stop it first (Ctrl-C where it runs, or \`kill ${err.owner.pid}\`)`;
    throw new CommandError(
      command === 'reset-admin-password'
        ? `the embedded database in ${dir} is in use by ${describeHolder(err)}. A reset now ` +
            `would be lost: ${stop}, then run the command again.`
        : `the embedded database in ${dir} is in use by ${describeHolder(err)}: ${stop}, then ` +
            'run the command again.',
    );
  }
}

async function open(config: Config, command: string, logger: Logger): Promise<DatabaseHandle> {
  if (!config.DATABASE_URL) {
    const dir = resolve(config.PGLITE_DATA_DIR);
    // Only a restore (onto a new machine) or a migrate may create the embedded database.
    if (!['restore', 'migrate'].includes(command) && !existsSync(join(dir, 'PG_VERSION')))
      throw new CommandError(
        `there is no embedded database in ${dir} yet (\`npm start\` creates it; set ` +
          'DATABASE_URL for PostgreSQL)',
      );
    const lock = lockEmbedded(dir, command, logger);
    return openPglite(dir, { lock });
  }
  const handle = connectPostgres({
    url: config.DATABASE_URL,
    password: config.DATABASE_PASSWORD,
    poolMax: 2,
  });
  try {
    await handle.ping(5000);
  } catch (err) {
    await handle.close();
    throw new CommandError(`the database does not answer: ${(err as Error).message}`);
  }
  return handle;
}

async function withDatabase(ctx: CliContext, command: Command, args: string[]): Promise<number> {
  if (!isCommand(command)) {
    ctx.stderr(USAGE);
    return 2;
  }
  const config = configOrExit(ctx, command);
  // Warnings (a lock takeover) and the reset's password line; JSON like the API's.
  const logger = createLogger(config.LOG_LEVEL === 'silent' ? 'silent' : 'warn');
  if (command === 'check') return check(ctx, config, logger);
  if (command === 'restore') {
    // The file is checked before the database is opened: a bad file changes nothing.
    const file = args.find((a) => !a.startsWith('--'));
    if (!file) throw new CommandError('name the backup file: usher restore FILE [--yes]');
    const { header, rows } = await verifyBackup(file);
    ctx.stdout(
      `${file}: Usher ${header.appVersion}, ${header.engine}, schema ${header.schema.latest}, ` +
        `${header.tables.length} tables, ${rows} rows, made ${header.createdAt}\n`,
    );
    if (!args.includes('--yes')) await confirm(ctx);
  }
  const handle = await open(config, command, logger);
  try {
    switch (command) {
      case 'migrate': {
        const { applied } = await migrate(handle.db, ctx.migrationsFolder);
        const latest = knownMigrations(ctx.migrationsFolder).at(-1)?.tag;
        ctx.stdout(
          applied.length === 0
            ? `schema up to date (${latest})\n`
            : `applied ${applied.length} migration(s): ${applied.join(', ')}; schema ${latest}\n`,
        );
        return 0;
      }
      case 'reset-admin-password': {
        await migrate(handle.db, ctx.migrationsFolder);
        await resetAdminPassword(handle.db, option(args, '--username') ?? 'admin', logger);
        return 0;
      }
      case 'backup': {
        const keepText = option(args, '--keep');
        if (keepText !== undefined && !/^[1-9]\d{0,2}$/.test(keepText))
          throw new CommandError('--keep needs a whole number of files from 1 to 999');
        const out =
          option(args, '--out') ?? join(resolve(config.BACKUP_DIR), backupFileName(new Date()));
        mkdirSync(resolve(out, '..'), { recursive: true });
        const made = await createBackup({ db: handle.db, kind: handle.kind }, out, {
          migrationsFolder: ctx.migrationsFolder,
          appVersion: VERSION,
        });
        ctx.stdout(
          `backup written: ${made.path} (${made.bytes} bytes, ${made.tables} tables, ` +
            `${made.rows} rows, schema ${made.header.schema.latest})\n`,
        );
        const keep = option(args, '--keep');
        if (keep !== undefined) {
          // The scheduled CronJob's retention: older backup files in the same folder go.
          const pruned = await pruneBackups(resolve(out, '..'), Number(keep));
          if (pruned.length > 0)
            ctx.stdout(`deleted ${pruned.length} older: ${pruned.join(', ')}\n`);
        }
        return 0;
      }
      case 'restore': {
        if (handle.kind === 'postgres') await refuseOtherSessions(handle);
        const file = args.find((a) => !a.startsWith('--'))!;
        const done = await restoreBackup(handle.db, file, {
          migrationsFolder: ctx.migrationsFolder,
        });
        ctx.stdout(
          `restored ${done.rows} rows from ${file}` +
            (done.migrated.length > 0 ? `; then applied ${done.migrated.join(', ')}` : '') +
            '\n',
        );
        return 0;
      }
      default:
        throw new CommandError(`unknown command ${command as string}`);
    }
  } finally {
    await handle.close();
  }
}

async function confirm(ctx: CliContext): Promise<void> {
  if (!ctx.interactive)
    throw new CommandError(
      'this replaces every row of the database with the file; run it again with --yes',
    );
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(
      'This replaces every row of the database with the file. Type "restore" to go on: ',
    );
    if (answer.trim() !== 'restore') throw new CommandError('not confirmed; nothing changed');
  } finally {
    rl.close();
  }
}

/** A restore under a running API would race its writes: PostgreSQL says who else is connected. */
async function refuseOtherSessions(handle: DatabaseHandle): Promise<void> {
  const [row] = await queryRows<{ n: string | number }>(
    handle.db,
    sql`select count(*) as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
  );
  const others = Number(row?.n ?? 0);
  if (others > 0)
    throw new CommandError(
      `${others} other connection(s) to the database: stop the API and the Bot first ` +
        '(docker compose stop api bot; kubectl scale deploy --replicas=0 …), then run the command again',
    );
}

type Status = 'ok' | 'warn' | 'fail';

/** What an operator runs when something is wrong: one line per check, exit 1 on any failure. */
async function check(ctx: CliContext, config: Config, logger: Logger): Promise<number> {
  const lines: [string, Status, string][] = [];
  const add = (what: string, status: Status, text: string) => {
    lines.push([what, status, text]);
    ctx.stdout(`${what.padEnd(13)} ${status.padEnd(5)} ${text}\n`);
  };
  add(
    'environment',
    'ok',
    `valid; database ${config.DATABASE_URL ? redactUrl(config.DATABASE_URL) : `embedded (${resolve(config.PGLITE_DATA_DIR)})`}`,
  );
  let handle: DatabaseHandle;
  try {
    handle = await open(config, 'check', logger);
  } catch (err) {
    add('database', 'fail', (err as Error).message);
    return 1;
  }
  try {
    const [version] = await queryRows<{ v: string }>(handle.db, sql`select version() as v`);
    add('database', 'ok', `reachable (${version?.v.split(' on ')[0] ?? 'unknown'})`);
    const known = knownMigrations(ctx.migrationsFolder);
    const { applied, unknown } = await appliedMigrations(handle.db, ctx.migrationsFolder);
    if (unknown.length > 0)
      add('schema', 'fail', `${unknown.length} migration(s) from a newer Usher: upgrade Usher`);
    else if (applied.length < known.length)
      add(
        'schema',
        'warn',
        `${known.length - applied.length} migration(s) pending (the API applies them at start, or \`usher migrate\`)`,
      );
    else add('schema', 'ok', `up to date (${known.at(-1)?.tag})`);
    if (applied.length === 0) return lines.some(([, s]) => s === 'fail') ? 1 : 0;
    const store = new SettingsStore(
      handle.db,
      new SettingsCipher(config.CONFIG_ENCRYPTION_KEY),
      ctx.env,
      logger,
    );
    const unreadable = await store.undecryptable();
    add(
      'settings',
      unreadable.length > 0 ? 'fail' : 'ok',
      unreadable.length > 0
        ? `cannot decrypt ${unreadable.map((u) => `${u.key} (${u.reason})`).join(', ')} with ` +
            'CONFIG_ENCRYPTION_KEY: restore the old key or enter them again at /admin/settings'
        : 'stored secrets decrypt with CONFIG_ENCRYPTION_KEY',
    );
    const mediaConfig = await readMediaServerConfig(store);
    if (!mediaConfig.url || !mediaConfig.apiKey) {
      add('media server', 'warn', 'not configured (MEDIA_SERVER_URL, MEDIA_SERVER_API_KEY)');
    } else {
      try {
        const info = await createMediaServer(mediaConfig).probe();
        add(
          'media server',
          info.supported ? 'ok' : 'warn',
          `${info.product} ${info.version} "${info.name}" at ${mediaConfig.url}` +
            (info.supported ? '' : ' (older than supported)'),
        );
      } catch (err) {
        add('media server', 'fail', `${mediaConfig.url}: ${(err as Error).message}`);
      }
    }
  } finally {
    await handle.close();
  }
  return lines.some(([, s]) => s === 'fail') ? 1 : 0;
}

function redactUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}
