/**
 * Cross-component (40-bot.md §12): the real Usher API (bundled from services/api/src like the
 * image, started as a process on a throwaway PGlite database, as `npm run demo` starts it) with
 * the testkit fakes, and two bot replicas in webhook mode. The API pushes to replica A through
 * BOT_NOTIFY_URL; Telegram delivers button presses and replies to either replica.
 *
 * bind → search → request → approve (replica B) → the web sees APPROVED → requester DM, and a
 * request made on the web reaching the admins within a second, rejected with a reason typed on
 * the other replica. Then every command of §6.1 with its happy and main error paths against the
 * same API (accounts and redeem codes seeded through the admin routes), and last the API process
 * stopped: each command gets the polite "unavailable" reply and the bot keeps serving.
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
  eventually,
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
import type { Lang } from '../../src/config.js';
import { t, type CatalogKey, type Vars } from '../../src/format/i18n/index.js';
import { formatTime } from '../../src/format/values.js';

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
let adminToken: string;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

/** The first truthy value of `check`; a failure carries the API's last output. */
function waitFor<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms = 15_000,
): Promise<T> {
  return eventually(
    async () => {
      const value = await check();
      if (!value) throw new Error(`condition not met\n${apiLog.slice(-3000)}`);
      return value;
    },
    { timeoutMs: ms, intervalMs: 25 },
  );
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
  const exited = new AbortController();
  apiProcess.once('exit', () => exited.abort(new Error(`API exited early:\n${apiLog}`)));
  await eventually(async () => expect((await fetch(`${apiUrl}/health`)).status).toBe(200), {
    timeoutMs: 90_000,
    intervalMs: 25,
    signal: exited.signal,
  });

  adminToken = await session('admin', ADMIN_PASSWORD);
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

/** Stops the API process (once); later calls wait for the same exit. */
let stopping: Promise<unknown> | null = null;
function stopApi() {
  if (!apiProcess || apiProcess.exitCode !== null || apiProcess.signalCode !== null) {
    return stopping ?? Promise.resolve();
  }
  stopping ??= new Promise((r) => {
    apiProcess.once('exit', r);
    apiProcess.kill('SIGTERM');
  });
  return stopping;
}

afterAll(async () => {
  await stopApi();
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
    // In the member's language throughout: the title, never the API's English summary.
    expect(exists.text).toMatch(/^ℹ️ 媒体库中已有该内容：(Dune|沙丘)，仍要提交吗？$/);
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

// ---------------------------------------------------------------------------------------------
// Every command of 40-bot.md §6.1 against the real API: the happy path and the main errors.

const DAY = 86_400_000;
/** The API's SCHEDULE_TIMEZONE default, which `GET /internal/settings` hands the bot. */
const TZ = 'UTC';

type TgUser = ReturnType<typeof tgUser>;

/** A catalog text as the fake shows it: Telegram strips the HTML tags from what it stores. */
const shown = (lang: Lang, key: CatalogKey, vars?: Vars) =>
  t(lang, key, vars).replace(/<[^>]*>/g, '');
const textOf = (user: TgUser) => lastMessage(fake, user.id).text ?? '';
const send = (replica: Replica, from: TgUser, command: string, args?: string) =>
  pushTo(fake, replica, commandMessage({ from, command, ...(args ? { args } : {}) }));
const current = (user: TgUser, message: TgMessage) =>
  fake.state.findMessage(user.id, message.message_id)!.message;
/** Presses the button labelled `label` of `message` and returns the callback answer. */
async function press(replica: Replica, from: TgUser, message: TgMessage, label: string) {
  // The message as it stands now, else the copy the caller holds (a client that has not
  // caught up with an edit yet, as in a double tap).
  const copies = [current(from, message), message];
  const found = copies
    .map((m) => ({ m, data: m.reply_markup?.inline_keyboard.flat().find((x) => x.text === label) }))
    .find((c) => c.data?.callback_data);
  if (!found) throw new Error(`no button "${label}" on: ${JSON.stringify(copies[0])}`);
  await pushTo(
    fake,
    replica,
    callbackQuery({ from, message: found.m, data: found.data!.callback_data! }),
  );
  return fake.callsTo('answerCallbackQuery').at(-1)!;
}

async function newMember(username: string, fields: Record<string, unknown>) {
  const password = `${username}-Passw0rd-e2e`;
  const created = await call('POST', '/api/v1/admin/users', adminToken, {
    username,
    password,
    ...fields,
  });
  if (created.status !== 201)
    throw new Error(`create ${username}: ${created.status} ${JSON.stringify(created.body)}`);
  return session(username, password);
}

async function bindCode(token: string) {
  const res = await call('POST', '/api/v1/me/messenger/bind-code', token);
  expect(res.status).toBe(201);
  return String(res.body.code);
}

async function redeemCode(days: number, maxUses: number) {
  const res = await call('POST', '/api/v1/admin/redeem-codes', adminToken, { days, maxUses });
  expect(res.status).toBe(201);
  return String(res.body.code);
}

/** `/search` on replica A, then the result whose line matches `row` picked on replica B. */
async function searchAndPick(user: TgUser, query: string, row: RegExp) {
  await send(a, user, 'search', query);
  const list = lastMessage(fake, user.id);
  const line = list.text!.split('\n').find((l) => row.test(l));
  if (!line) throw new Error(`no result line matching ${row} in:\n${list.text}`);
  await press(b, user, list, line.match(/^(\d+)\./)![1]!);
  return lastMessage(fake, user.id);
}

const rita = tgUser({ id: 7202, first_name: 'Rita', username: 'rita', language_code: 'en' });
const noah = tgUser({ id: 7203, first_name: 'Noah', language_code: 'zh-hans' });
const nobody = tgUser({ id: 7302, first_name: 'Nobody', language_code: 'en' });
/**
 * Rita: a media user, 10 days left. Noah: expired 3 days ago, no media user. (The demo media
 * server already has users named like people, hence the suffix.)
 */
const ritaExpiry = new Date(Date.now() + 10 * DAY).toISOString();
const noahExpiry = new Date(Date.now() - 3 * DAY).toISOString();
let ritaToken: string;
let noahToken: string;

describe('every command of §6.1 against the real API', () => {
  beforeAll(async () => {
    ritaToken = await newMember('rita_e2e', { expiresAt: ritaExpiry, createMediaUser: true });
    noahToken = await newMember('noah_e2e', { expiresAt: noahExpiry, createMediaUser: false });
  }, 30_000);

  it('should answer /start and /help, and link through the /start bind_<code> deep link once', async () => {
    await send(a, rita, 'start');
    expect(textOf(rita)).toBe(
      `${shown('en', 'start.hello', { name: 'Rita' })}\n\n${shown('en', 'help.body')}`,
    );
    await send(b, rita, 'help');
    expect(textOf(rita)).toBe(shown('en', 'help.body'));

    const code = await bindCode(ritaToken);
    await send(a, rita, 'start', `bind_${code}`);
    expect(textOf(rita)).toBe('✅ Linked to Usher account rita_e2e.');
    // The API deleted the code: the same link from another Telegram is refused.
    await send(b, nobody, 'start', `bind_${code}`);
    expect(textOf(nobody)).toBe(shown('en', 'bind.invalid'));
  });

  it('should refuse /bind with a bad argument or from a Telegram linked elsewhere, then link', async () => {
    const code = await bindCode(noahToken);
    await send(a, noah, 'bind', '12345');
    expect(textOf(noah)).toBe(shown('zh-CN', 'usage.bind'));
    // Rita's Telegram is already linked to rita_e2e: the API refuses and keeps the code.
    await send(b, rita, 'bind', code);
    expect(textOf(rita)).toBe(shown('en', 'bind.telegramTaken'));
    await send(a, noah, 'bind', code);
    expect(textOf(noah)).toBe('✅ 已绑定 Usher 账号 noah_e2e。');
    await send(b, noah, 'bind', code);
    expect(textOf(noah)).toBe(shown('zh-CN', 'bind.invalid'));
  });

  it('should show an expired account without a media user, with the renew tip', async () => {
    await send(b, noah, 'info');
    expect(textOf(noah)).toBe(
      [
        shown('zh-CN', 'info.title'),
        '👤 noah_e2e',
        shown('zh-CN', 'status.expired'),
        shown('zh-CN', 'info.validUntil', { expiresAt: formatTime(noahExpiry, TZ) }),
        '',
        shown('zh-CN', 'info.renewTip'),
      ].join('\n'),
    );
  });

  it('should move the expiry with a good /redeem code and explain used, unknown and used-up codes', async () => {
    const month = await redeemCode(30, 2);
    const week = await redeemCode(7, 1);

    await send(a, rita, 'redeem', month);
    const renewed = formatTime(new Date(Date.parse(ritaExpiry) + 30 * DAY).toISOString(), TZ);
    expect(textOf(rita)).toBe(shown('en', 'redeem.ok', { days: 30, expiresAt: renewed }));
    // Stored: /info reads the new expiry back from the API.
    await send(b, rita, 'info');
    expect(textOf(rita)).toContain(shown('en', 'info.validUntil', { expiresAt: renewed }));
    expect(textOf(rita)).toContain(shown('en', 'status.active'));

    await send(b, rita, 'redeem', month);
    expect(textOf(rita)).toBe(shown('en', 'redeem.alreadyUsed'));
    await send(a, rita, 'redeem', 'NOPE-0000');
    expect(textOf(rita)).toBe(shown('en', 'redeem.notFound'));
    await send(b, rita, 'redeem', 'a<b');
    expect(textOf(rita)).toBe(shown('en', 'usage.redeem'));

    // Noah's account had expired: the week counts from now, and it is no longer expired.
    const from = Date.now();
    await send(a, noah, 'redeem', week);
    const to = Date.now();
    const expected = [from, to].map((ms) =>
      shown('zh-CN', 'redeem.ok', {
        days: 7,
        expiresAt: formatTime(new Date(ms + 7 * DAY).toISOString(), TZ),
      }),
    );
    expect(expected).toContain(textOf(noah));
    await send(b, noah, 'info');
    expect(textOf(noah)).toContain(shown('zh-CN', 'status.noMedia'));
    expect(textOf(noah)).not.toContain(shown('zh-CN', 'info.renewTip'));

    await send(b, rita, 'redeem', week);
    expect(textOf(rita)).toBe(shown('en', 'redeem.exhausted'));
    await send(a, nobody, 'redeem', month);
    expect(textOf(nobody)).toBe(shown('en', 'common.notBound'));
  });

  it('should /search: no results, usage, unbound, no media user, a series season, a duplicate', async () => {
    await send(a, rita, 'search', 'Zzyzx Qwerty');
    expect(textOf(rita)).toBe(shown('en', 'search.none', { query: 'Zzyzx Qwerty' }));
    await send(b, rita, 'search');
    expect(textOf(rita)).toBe(shown('en', 'usage.search'));
    await send(a, nobody, 'search', 'Dune');
    expect(textOf(nobody)).toBe(shown('en', 'common.notBound'));

    // Noah has no media user: the API refuses the request and the bot says why.
    const primer = await searchAndPick(noah, 'Primer', /^\d+\. Primer \(2004\)/);
    expect(primer.text).toContain(
      shown('zh-CN', 'search.confirm', { title: 'Primer', season: '' }),
    );
    await press(a, noah, primer, t('zh-CN', 'button.request'));
    expect(current(noah, primer).text).toBe(shown('zh-CN', 'search.needAccount'));
    expect(current(noah, primer).reply_markup).toBeUndefined();

    // A series: seasons without the specials, then the announced season 3 (nothing on disk
    // can match it, whatever the demo library holds), requested.
    const seasons = await searchAndPick(rita, 'Severance', /^\d+\. Severance \(2022\)/);
    expect(seasons.text).toContain(shown('en', 'search.pickSeason'));
    const labels = seasons.reply_markup!.inline_keyboard.flat().map((x) => x.text);
    expect(labels).toEqual([
      'S1',
      'S2',
      'S3',
      t('en', 'search.wholeSeries'),
      t('en', 'button.back'),
    ]);
    await press(a, rita, seasons, 'S3');
    expect(current(rita, seasons).text).toContain('Request Severance · S3?');
    await press(b, rita, seasons, t('en', 'button.request'));
    expect(current(rita, seasons).text).toBe(
      shown('en', 'search.created', { title: 'Severance', season: ' · S3' }),
    );
    expect(current(rita, seasons).reply_markup).toBeUndefined();
    const mine = await call('GET', '/api/v1/media-requests', ritaToken);
    expect(mine.body.data).toEqual([
      expect.objectContaining({ type: 'TV', tmdbId: 95396, season: 3, status: 'PENDING' }),
    ]);

    // The same season again: the API reports the live request.
    const again = await searchAndPick(rita, 'Severance', /^\d+\. Severance \(2022\)/);
    await press(a, rita, again, 'S3');
    await press(b, rita, again, t('en', 'button.request'));
    expect(current(rita, again).text).toBe(
      shown('en', 'search.duplicate', { status: t('en', 'requestStatus.PENDING') }),
    );
  });

  it('should /resetpw after confirmation, with /cancel and a stale button, and the password signs in', async () => {
    await send(a, nobody, 'resetpw');
    expect(textOf(nobody)).toBe(shown('en', 'common.notBound'));

    await send(a, rita, 'resetpw');
    const first = lastMessage(fake, rita.id);
    expect(first.text).toBe(shown('en', 'resetpw.confirm'));
    await send(b, rita, 'cancel');
    expect(textOf(rita)).toBe(shown('en', 'common.cancelled'));
    expect((await press(a, rita, first, 'Reset now')).params.text).toBe(
      shown('en', 'common.stale'),
    );
    await send(b, rita, 'cancel');
    expect(textOf(rita)).toBe(shown('en', 'common.nothing'));

    await send(a, rita, 'resetpw');
    const confirm = lastMessage(fake, rita.id);
    await press(b, rita, confirm, 'Reset now');
    expect(current(rita, confirm).text).toBe(shown('en', 'resetpw.started'));
    expect(current(rita, confirm).reply_markup).toBeUndefined();
    const done = textOf(rita);
    const password = /^✅ Your new password \(tap to reveal\): ([A-Za-z0-9]{20})\n/.exec(done)?.[1];
    if (!password) throw new Error(`no password in: ${done}`);
    // A second tap finds the state gone: no second reset.
    expect((await press(a, rita, confirm, 'Reset now')).params.text).toBe(
      shown('en', 'common.stale'),
    );
    for (const replica of [a, b]) expect(replica.logs.raw.join('\n')).not.toContain(password);

    // The new password is the account's, and the web asks for a change at sign-in.
    const signedIn = await login('rita_e2e', password);
    const me = await call('GET', '/api/v1/me', signedIn.token);
    expect(me.body).toMatchObject({ mustChangePassword: true });
  });

  it('should /refresh_menu for an approver and refuse a member', async () => {
    const sentBefore = fake.callsTo('sendMessage').length;
    const setBefore = fake.callsTo('setMyCommands').length;
    const deleteBefore = fake.callsTo('deleteMyCommands').length;
    await send(b, admin1, 'refresh_menu');
    const replies = fake
      .callsTo('sendMessage')
      .slice(sentBefore)
      .filter((c) => c.params.chat_id === admin1.id)
      .map((c) => c.params.text);
    expect(replies).toEqual([t('en', 'menu.refreshed')]);
    expect(fake.callsTo('setMyCommands').length - setBefore).toBe(3);
    expect(fake.callsTo('deleteMyCommands').length - deleteBefore).toBe(3);

    await send(a, rita, 'refresh_menu');
    expect(textOf(rita)).toBe(shown('en', 'common.noPermission'));
  });
});

describe('when the API process is gone', () => {
  it('should answer every command politely, answer buttons, and keep serving', async () => {
    await send(a, rita, 'search', 'Dune');
    const list = lastMessage(fake, rita.id);
    expect(list.reply_markup).toBeDefined();
    await stopApi();

    const attempts: [TgUser, Lang, Replica, string, string?][] = [
      [rita, 'en', a, 'bind', '123456'],
      [noah, 'zh-CN', b, 'start', 'bind_123456'],
      [rita, 'en', a, 'info'],
      [noah, 'zh-CN', b, 'redeem', 'ABCD-1234'],
      [rita, 'en', a, 'resetpw'],
      [noah, 'zh-CN', b, 'search', 'Dune'],
      [rita, 'en', a, 'cancel'],
    ];
    for (const [user, lang, replica, command, args] of attempts) {
      await send(replica, user, command, args);
      expect([command, textOf(user)]).toEqual([command, shown(lang, 'common.unavailable')]);
    }
    // A button of the live menu: answered with the same words; the menu stays for a retry.
    const answered = await press(b, rita, list, '1');
    expect(answered.params).toMatchObject({
      text: shown('en', 'common.unavailable'),
      show_alert: true,
    });
    expect(current(rita, list).reply_markup).toBeDefined();

    // Both replicas go on serving updates and stay healthy.
    await send(b, rita, 'help');
    expect(textOf(rita)).toBe(shown('en', 'help.body'));
    for (const replica of [a, b]) expect((await fetch(`${replica.url}/health`)).status).toBe(200);
  });
});
