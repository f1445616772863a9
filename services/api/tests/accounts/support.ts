// Shared set-up for the account tests: a fresh database, a media-server fake of the chosen flavour,
// the SMTP catcher, and an app whose settings point at both. Settings changes go through the
// settings service, as an admin's PUT would.
import {
  startFakeMediaServer,
  startFakeSmtp,
  type CapturedMail,
  type FakeMediaServer,
  type FakeSmtp,
} from '@usher/testkit';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBodySchema, type SettingValue } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { redeemCodes } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import type { Flavour } from '../support/flavours.js';

export const API_KEY = 'UsherAccountsKey0123456789abcd';
export { FLAVOURS, type Flavour } from '../support/flavours.js';

export interface AccountsEnv {
  t: TestApp;
  database: TestDatabase;
  media: FakeMediaServer;
  smtp: FakeSmtp;
  flavour: Flavour;
  /** Pushes the app sent to the stand-in bot (`BOT_NOTIFY_URL`). */
  botPushes: { path: string; body: Record<string, unknown> }[];
  /**
   * A request through the app; `ip` arrives as the client address (one trusted proxy hop,
   * default 198.51.100.7).
   */
  call(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; ip?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Writes settings as an admin would (validated, audited). */
  set(group: string, values: Record<string, SettingValue | null>): Promise<void>;
  /** Media-server users by lower-cased name. */
  mediaUser(
    name: string,
  ): { id: string; name: string; password: string; policy: Record<string, unknown> } | undefined;
  close(): Promise<void>;
}

export async function accountsEnv(
  flavour: Flavour,
  env: Record<string, string> = {},
): Promise<AccountsEnv> {
  const media = await startFakeMediaServer({
    flavour,
    apiKey: API_KEY,
    // The seed brings an administrator and libraries, like a real server (Jellyfin refuses to
    // disable its last enabled user).
    seed: true,
    ...(flavour === 'jellyfin' ? { version: '12.0.0' } : {}),
  });
  const smtp = await startFakeSmtp({});
  const bot = await standInBot();
  const database = await createTestDatabase();
  const t = createTestApp(database.handle, {
    config: testConfig({ TRUST_PROXY_HOPS: '1', BOT_NOTIFY_URL: bot.url }),
    settingsEnv: {
      MEDIA_SERVER_KIND: flavour,
      MEDIA_SERVER_URL: media.url,
      MEDIA_SERVER_API_KEY: API_KEY,
      MEDIA_SERVER_TIMEOUT_SECONDS: '5',
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_SECURITY: 'none',
      SMTP_FROM: 'Usher <no-reply@usher.example>',
      ...env,
    },
  });
  return {
    t,
    database,
    media,
    smtp,
    flavour,
    botPushes: bot.received,
    call: (method, path, { ip = '198.51.100.7', headers = {}, ...rest } = {}) =>
      t.call(method, path, { ...rest, headers: { 'x-forwarded-for': ip, ...headers } }),
    set: async (group, values) => {
      await t.context.settings.update(
        group,
        values,
        { type: 'system', id: null, label: 'test' },
        { ip: null, requestId: 'test' },
      );
    },
    mediaUser: (name) =>
      [...media.state.users.values()].find((u) => u.name.toLowerCase() === name.toLowerCase()),
    close: async () => {
      await database.close();
      await Promise.all([
        media.close(),
        smtp.close(),
        new Promise((resolve) => bot.server.close(resolve)),
      ]);
    },
  };
}

/** The error of an error reply, validated against the shared error body. */
export async function errorOf(
  res: Response,
): Promise<ReturnType<typeof errorBodySchema.parse>['error']> {
  return errorBodySchema.parse(await res.json()).error;
}

/** The 6-digit code in the last mail to `address`. */
export function codeIn(mail: CapturedMail | undefined): string {
  const match = /\b(\d{6})\b/.exec(mail?.text ?? '');
  if (!match) throw new Error(`no code in mail: ${mail?.text ?? '(no mail)'}`);
  return match[1]!;
}

/** Records every push to `/notify/*` and answers 200 like the bot. */
async function standInBot(): Promise<{
  url: string;
  server: Server;
  received: { path: string; body: Record<string, unknown> }[];
}> {
  const received: { path: string; body: Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({
        path: req.url ?? '',
        body: JSON.parse(text || '{}') as Record<string, unknown>,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, deliveries: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, received };
}

/** Inserts a redeem code (16 upper-case hex) and returns it. */
export async function aRedeemCode(
  db: TestApp['context']['db'],
  fields: { days: number; maxUses?: number; usedCount?: number; expiresAt?: Date | null },
): Promise<{ id: string; code: string }> {
  const code = randomBytes(8).toString('hex').toUpperCase();
  const id = uuidv7();
  await db.insert(redeemCodes).values({ id, code, ...fields });
  return { id, code };
}

/** The first mail to `address` (waits up to 20 s: background sends on a busy machine). */
export function mailTo(env: AccountsEnv, address: string): Promise<CapturedMail> {
  return env.smtp.waitForMessage((m) => m.envelope.to.includes(address), 20_000);
}
