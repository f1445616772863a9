/**
 * Cross-component (40-bot.md §12): the real Usher API (bundled from services/api/src like the
 * image, started as a process on a throwaway PGlite database, as `npm run demo` starts it) with
 * the testkit fakes, and two bot replicas in webhook mode. The API pushes to replica A through
 * BOT_NOTIFY_URL; Telegram delivers button presses and replies to either replica.
 *
 * bind → search → request → approve (replica B) → the web sees APPROVED → requester DM, and a
 * request made on the web reaching the admins within a second, rejected with a reason typed on
 * the other replica.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  callbackQuery,
  commandMessage,
  defaultTmdbFixtures,
  privateChat,
  replyMessage,
  startDemoFakes,
  startFakeTmdb,
  tgUser,
  type DemoFakes,
  type FakeTelegram,
  type FakeTmdb,
  type TgMessage,
} from '@usher/testkit';
import { build } from 'esbuild';
import {
  INTERNAL_SECRET,
  lastMessage,
  pushTo,
  startReplica,
  type Replica,
} from '../support/harness.js';

const BOT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const API_ROOT = join(BOT_ROOT, '../api');
const OUT = join(BOT_ROOT, '.cache', `e2e-${randomBytes(4).toString('hex')}`);
const ADMIN_PASSWORD = `Adm1n-${randomBytes(8).toString('hex')}`;

const admin1 = tgUser({ id: 7101, first_name: 'Ann', username: 'ann' });
const admin2 = tgUser({ id: 7102, first_name: 'Ben', username: 'ben' });
const member = tgUser({ id: 7201, first_name: 'Mia', language_code: 'zh-hans' });

let fakes: DemoFakes;
let tmdb: FakeTmdb;
let fake: FakeTelegram;
let a: Replica;
let b: Replica;
let apiProcess: ChildProcess;
let apiUrl: string;
let apiLog = '';
let dataDir: string;
let memberToken: string;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms = 15_000,
) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`condition not met in time\n${apiLog.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

async function login(username: string, password: string) {
  const res = await call('POST', '/api/v1/auth/login', undefined, { username, password });
  if (res.status !== 200)
    throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { token: string; user?: { mustChangePassword?: boolean } };
}

/** Logs in, changing the password first when the API demands it. */
async function session(username: string, password: string): Promise<string> {
  const first = await login(username, password);
  const me = await call('GET', '/api/v1/me', first.token);
  if (!(me.body as { mustChangePassword?: boolean }).mustChangePassword) return first.token;
  const next = `${password}-n3w`;
  const changed = await call('PUT', '/api/v1/me/password', first.token, {
    currentPassword: password,
    newPassword: next,
  });
  if (changed.status >= 300)
    throw new Error(`password change: ${changed.status} ${JSON.stringify(changed.body)}`);
  return (await login(username, next)).token;
}

beforeAll(async () => {
  mkdirSync(join(OUT, 'api'), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(API_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: [join(API_ROOT, 'src/main.ts')],
    outfile: join(OUT, 'api/main.js'),
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    external: Object.keys(pkg.dependencies),
    define: { __USHER_VERSION__: JSON.stringify('0.0.0-e2e') },
    logLevel: 'warning',
  });
  cpSync(join(API_ROOT, 'drizzle'), join(OUT, 'api/drizzle'), { recursive: true });

  const apiPort = await freePort();
  apiUrl = `http://127.0.0.1:${apiPort}`;
  fakes = await startDemoFakes({ seed: 4242, usherUrl: apiUrl });
  fake = fakes.telegram;
  tmdb = await startFakeTmdb({
    apiKey: fakes.env.TMDB_API_KEY,
    fixtures: defaultTmdbFixtures(new Date().toISOString().slice(0, 10)),
  });
  for (const user of [admin1, admin2, member]) fake.seedChat(privateChat(user));

  a = await startReplica({ telegram: fake, apiUrl });
  b = await startReplica({ telegram: fake, apiUrl });
  dataDir = mkdtempSync(join(tmpdir(), 'usher-bot-e2e-'));
  apiProcess = spawn(process.execPath, [join(OUT, 'api/main.js')], {
    cwd: join(OUT, 'api'),
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PORT: String(apiPort),
      LOG_LEVEL: 'warn',
      PGLITE_DATA_DIR: dataDir,
      DATABASE_PASSWORD: randomBytes(16).toString('hex'),
      JWT_SECRET: randomBytes(32).toString('hex'),
      CONFIG_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      INTERNAL_API_SECRET: INTERNAL_SECRET,
      ADMIN_PASSWORD,
      ...fakes.env,
      TMDB_API_BASE: tmdb.apiBase,
      TMDB_IMAGE_BASE: tmdb.imageBase,
      MESSENGER_APPROVER_IDS: `${admin1.id},${admin2.id}`,
      BOT_NOTIFY_URL: a.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  apiProcess.stdout!.on('data', (c: Buffer) => (apiLog += c.toString()));
  apiProcess.stderr!.on('data', (c: Buffer) => (apiLog += c.toString()));
  await waitFor(async () => {
    if (apiProcess.exitCode !== null) throw new Error(`API exited early:\n${apiLog}`);
    const res = await fetch(`${apiUrl}/health`).catch(() => null);
    return res?.status === 200;
  }, 90_000);

  const adminToken = await session('admin', ADMIN_PASSWORD);
  const created = await call('POST', '/api/v1/admin/users', adminToken, {
    username: 'mia',
    password: 'Mia-passw0rd-e2e',
    expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    createMediaUser: true,
  });
  if (created.status !== 201)
    throw new Error(`create member: ${created.status} ${JSON.stringify(created.body)}`);
  memberToken = await session('mia', 'Mia-passw0rd-e2e');
}, 180_000);

afterAll(async () => {
  if (apiProcess && apiProcess.exitCode === null) {
    apiProcess.kill('SIGTERM');
    await new Promise((r) => apiProcess.once('exit', r));
  }
  await a?.close();
  await b?.close();
  await tmdb?.close();
  await fakes?.close();
  rmSync(OUT, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const cardOf = (chatId: number, requestId: string) =>
  fake
    .messages(chatId)
    .find((m) => JSON.stringify(m.reply_markup ?? {}).includes(`ap:${requestId}`));
const button = (m: TgMessage, text: string) =>
  m.reply_markup!.inline_keyboard.flat().find((x) => x.text === text)!.callback_data!;

describe('bot with the real API', () => {
  it('should bind, search, request, be approved on replica B, ingest, and tell the member each time', async () => {
    const code = await call('POST', '/api/v1/me/messenger/bind-code', memberToken);
    expect(code.status).toBe(201);
    await pushTo(
      fake,
      a,
      commandMessage({ from: member, command: 'bind', args: String(code.body.code) }),
    );
    expect(lastMessage(fake, member.id).text).toBe('✅ 已绑定 Usher 账号 mia。');

    await pushTo(fake, a, commandMessage({ from: member, command: 'info' }));
    expect(lastMessage(fake, member.id).text).toContain('👤 mia');

    await pushTo(fake, b, commandMessage({ from: member, command: 'search', args: 'Dune' }));
    const list = lastMessage(fake, member.id);
    const row = list
      .text!.split('\n')
      .find((l) => / Dune \(2021\)/.test(l) || /沙丘 \(2021\)/.test(l))!;
    const index = row.match(/^(\d+)\./)![1]!;
    await pushTo(
      fake,
      a,
      callbackQuery({ from: member, message: list, data: button(list, index) }),
    );
    const confirm = lastMessage(fake, member.id);
    await pushTo(
      fake,
      b,
      callbackQuery({ from: member, message: confirm, data: button(confirm, '✅ 求片') }),
    );
    // The demo library already holds Dune: the member confirms anyway.
    const exists = lastMessage(fake, member.id);
    expect(exists.text).toMatch(/^ℹ️ 媒体库中已有该内容：.+，仍要提交吗？$/);
    await pushTo(
      fake,
      a,
      callbackQuery({ from: member, message: exists, data: button(exists, '✅ 仍要提交') }),
    );
    expect(lastMessage(fake, member.id).text).toMatch(/^✅ 已提交求片：.+，等待管理员审核。$/);

    const mine = await call('GET', '/api/v1/media-requests', memberToken);
    const request = (mine.body.data as { id: string; status: string; tmdbId: number }[]).find(
      (r) => r.tmdbId === 438631,
    )!;
    expect(request.status).toBe('PENDING');

    const copy1 = await waitFor(() => cardOf(admin1.id, request.id));
    const copy2 = await waitFor(() => cardOf(admin2.id, request.id));
    expect(copy1.caption ?? copy1.text).toContain('🎬 New request');

    await pushTo(
      fake,
      b,
      callbackQuery({ from: admin1, message: copy1, data: `ap:${request.id}` }),
    );
    expect(fake.callsTo('answerCallbackQuery').at(-1)!.params.text).toBe('Approved');

    const seen = await call('GET', '/api/v1/media-requests', memberToken);
    expect(
      (seen.body.data as { id: string; status: string }[]).find((r) => r.id === request.id)!.status,
    ).toBe('APPROVED');

    await waitFor(() => lastMessage(fake, member.id).text?.startsWith('✅ 求片已通过'));
    await waitFor(() => {
      const other = fake.state.findMessage(admin2.id, copy2.message_id)!.message;
      return !other.reply_markup && (other.caption ?? other.text ?? '').includes('✅ Approved by');
    });

    // The download lands: the media server's webhook reaches the API, which marks the request
    // ingested and pushes `ingested`; the bot edits the copies and tells the member.
    const added = await fetch(`${fakes.mediaServer.url}/__fake/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'Movie', name: 'Dune', year: 2021, tmdbId: '438631' }),
    });
    expect(added.status).toBeLessThan(300);
    await waitFor(() => lastMessage(fake, member.id).text?.startsWith('📦 已入库'));
    await waitFor(() =>
      (fake.state.findMessage(admin1.id, copy1.message_id)!.message.caption ?? '').includes(
        '📦 Available · ',
      ),
    );
    const after = await call('GET', '/api/v1/media-requests', memberToken);
    expect(
      (after.body.data as { id: string; status: string }[]).find((r) => r.id === request.id)!
        .status,
    ).toBe('INGESTED');
  });

  it('should bring a web request to the admins within a second, and reject it with a reason typed on the other replica', async () => {
    const created = await call('POST', '/api/v1/media-requests', memberToken, {
      type: 'MOVIE',
      tmdbId: 693134,
      season: 0,
      name: 'Dune: Part Two',
      year: 2024,
      confirmExisting: true,
    });
    expect(created.status).toBe(201);
    // Measured from the web's 201: the push leaves after the commit, fire-and-forget.
    const created201 = Date.now();
    const id = (created.body.request as { id: string }).id;
    const copy2 = await waitFor(() => cardOf(admin2.id, id), 5000);
    expect(Date.now() - created201).toBeLessThan(1000);

    await pushTo(fake, a, callbackQuery({ from: admin2, message: copy2, data: `rj:${id}` }));
    const prompt = lastMessage(fake, admin2.id);
    expect(prompt.text).toContain('✍️ Reply with the reason for rejecting');
    await pushTo(
      fake,
      b,
      replyMessage({ from: admin2, to: prompt, text: 'Only the 2021 one, sorry' }),
    );
    expect(lastMessage(fake, admin2.id).text).toBe('❌ Rejected.');

    const seen = await call('GET', '/api/v1/media-requests', memberToken);
    const row = (seen.body.data as { id: string; status: string; rejectReason: string }[]).find(
      (r) => r.id === id,
    )!;
    expect(row).toMatchObject({ status: 'REJECTED', rejectReason: 'Only the 2021 one, sorry' });
    await waitFor(() =>
      lastMessage(fake, member.id).text?.includes('📝 原因：Only the 2021 one, sorry'),
    );
    await waitFor(() => {
      const copy = fake.state.findMessage(admin2.id, copy2.message_id)!.message;
      return (
        (copy.caption ?? copy.text ?? '').includes('📝 Only the 2021 one, sorry') &&
        !copy.reply_markup
      );
    });
  });

  it('should answer an unbound Telegram and a bad bind code politely', async () => {
    const stranger = tgUser({ id: 7301 });
    await pushTo(fake, a, commandMessage({ from: stranger, command: 'info' }));
    expect(lastMessage(fake, stranger.id).text).toContain("Your Telegram isn't linked yet.");
    await pushTo(fake, b, commandMessage({ from: stranger, command: 'bind', args: '000000' }));
    expect(lastMessage(fake, stranger.id).text).toContain('This code is unknown or expired');
  });
});
