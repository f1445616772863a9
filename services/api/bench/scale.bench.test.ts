import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  addRetentionBacklog,
  buildScaleCommunity,
  buildScaleMedia,
  defaultTmdbFixtures,
  scaleLayout,
  scaleTmdbSeries,
  startFakeMediaServer,
  startFakeTmdb,
  type FakeMediaServer,
  type FakeTmdb,
  type SqlRunner,
} from '@usher/testkit';
import pg from 'pg';
import { ARGON2_IDLE_MS, hashPassword } from '../src/security/passwords.js';
import { freshSecrets } from '../tests/support/config.js';
import { round } from './harness.js';
import { EXPLAINS } from './scale-explain.js';
import {
  apiRoot,
  buildAndCopy,
  freePort,
  login as signIn,
  rssMb,
  sleep,
  startProcess,
  type Server,
} from './processes.js';
import {
  growth,
  parseScaleArgs,
  scaleGoals,
  selected,
  sizesFor,
  timing,
  type Community,
  type Engine,
  type JobFigure,
  type Timing,
} from './scale-harness.js';

/**
 * `npm run bench:scale` (bench/scale.mjs runs this file; not part of `npm test` or `npm run
 * bench`): builds the scale fixture (services/testkit/src/scale) at each size on PostgreSQL and
 * PGlite, starts the built API against it with the media-server and TMDB fakes, and measures the
 * admin lists, the member pages' calls, idle RSS after sign-ins and every job (docs/performance.md
 * "Scale"). Figures go to BENCH_OUT; scale.mjs prints them and the `SCALE {json}` line.
 */
const options = parseScaleArgs(JSON.parse(process.env.BENCH_ARGS ?? '[]') as string[]);
const outFile = process.env.BENCH_OUT ?? join(apiRoot, '.cache/scale.json');
const apiNodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const distCopy = join(apiRoot, '.cache', `scale-dist-${process.pid}`);
const PASSWORD = 'scale-password-1234';
const MEDIA_KEY = 'scale0media0key0000000000000000a';
const TMDB_KEY = '5ca1e0000000000000000000000000db';
const print = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (t0: number) => round((performance.now() - t0) / 1000, 2);
// Scheduled runs of the measured jobs would race the bench's own: pushed to the first of January.
const QUIET_CRONS = {
  ...Object.fromEntries(
    [
      'EXPIRY_CHECK_CRON',
      'REMINDER_CRON',
      'RANKING_DAILY_CRON',
      'RANKING_WEEKLY_CRON',
      'CLEANUP_CRON',
      'CALENDAR_SYNC_CRON',
      'BACKUP_CRON',
    ].map((k) => [k, '0 0 1 1 *']),
  ),
  // Every restart would start a calendar sync 15 s later, in the middle of the next job.
  CALENDAR_SYNC_ON_START: 'false',
  // The account-sharing watch (off by default) reads the 500 live sessions.
  SHARING_ENABLED: 'true',
  // No timer at all (manual runs still work): `playback_sync` runs every 5 minutes on a fixed
  // schedule, and its backfill must not start in the middle of another figure.
  JOBS_ENABLED: 'false',
};

const secrets = freshSecrets();
function startApi(
  db: { url: string } | { dataDir: string },
  env: Record<string, string>,
): Promise<Server> {
  return freePort().then((port) =>
    startProcess(
      [...apiNodeArgs, join(distCopy, 'main.js')],
      {
        ...secrets,
        ...env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ADMIN_PASSWORD: PASSWORD,
        TRUST_PROXY_HOPS: '1',
        ...('url' in db ? { DATABASE_URL: db.url } : { PGLITE_DATA_DIR: db.dataDir }),
      },
      port,
      '/health',
    ),
  );
}

const login = (base: string, username: string, i: number) =>
  signIn(base, username, PASSWORD, `10.33.0.${i % 250}`);

async function call(base: string, path: string, token: string): Promise<unknown> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** p50/p95 of `samples` sequential calls after three warm-ups. */
async function measure(base: string, path: string, token: string): Promise<Timing> {
  for (let i = 0; i < 3; i++) await call(base, path, token);
  const ms: number[] = [];
  for (let i = 0; i < options.samples; i++) {
    const t0 = performance.now();
    await call(base, path, token);
    ms.push(performance.now() - t0);
  }
  return timing(ms);
}

/** Runs a job through the admin API and waits for it, sampling the API's RSS every 100 ms. */
async function runJob(
  api: Server,
  token: string,
  name: string,
  params?: Record<string, unknown>,
): Promise<JobFigure> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let peak = rssMb(api.child.pid!);
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(api.child.pid!));
    } catch {
      // gone
    }
  }, 100);
  const t0 = performance.now();
  try {
    let runId: string | undefined;
    for (let attempt = 0; !runId; attempt++) {
      const res = await fetch(`${api.url}/api/v1/admin/jobs/${name}/run`, {
        method: 'POST',
        headers,
        body: JSON.stringify(params ? { params } : {}),
      });
      const body = (await res.json()) as { runId?: string; error?: { code?: string } };
      if (res.status === 202) runId = body.runId;
      // A startup or scheduled run holds it (calendar_sync runs after every start): wait it out.
      else if (res.status === 409 && attempt < 3600) await sleep(500);
      else throw new Error(`run ${name}: ${res.status} ${JSON.stringify(body)}`);
    }
    for (;;) {
      const run = (await call(api.url, `/api/v1/admin/job-runs/${runId}`, token)) as {
        status: string;
        summary?: unknown;
        error?: string | null;
      };
      if (run.status !== 'running') {
        const figure = { seconds: seconds(t0), peakRssMb: peak, status: run.status };
        if (run.status === 'failed') print(`   ${name} failed: ${run.error}`);
        return { ...figure, summary: run.summary };
      }
      await sleep(100);
    }
  } finally {
    clearInterval(sampler);
  }
}

interface Fakes {
  media: FakeMediaServer;
  tmdb: FakeTmdb;
  env: Record<string, string>;
  buildS: number;
}

async function startFakes(size: number, now: Date): Promise<Fakes> {
  const t0 = performance.now();
  const media = await startFakeMediaServer({
    flavour: 'jellyfin',
    apiKey: MEDIA_KEY,
    now: () => now,
  });
  const layout = scaleLayout(size);
  const built = buildScaleMedia(media.state, { members: size, accounts: [layout.due], now });
  const buildS = seconds(t0);
  print(
    `   media fake: ${built.items} items (${built.movies} movies, ${built.series} series), ` +
      `${built.plays} plays, ${built.users} accounts, ${built.sessions} sessions in ${buildS} s`,
  );
  const today = now.toISOString().slice(0, 10);
  const fixtures = defaultTmdbFixtures(today);
  fixtures.tv.push(...scaleTmdbSeries(today, built.series));
  const tmdb = await startFakeTmdb({ apiKey: TMDB_KEY, today, fixtures });
  const env = {
    MEDIA_SERVER_KIND: 'jellyfin',
    MEDIA_SERVER_URL: media.url,
    MEDIA_SERVER_API_KEY: MEDIA_KEY,
    MEDIA_SERVER_TIMEZONE: 'UTC',
    TMDB_API_KEY: TMDB_KEY,
    TMDB_API_BASE: tmdb.apiBase,
    TMDB_IMAGE_BASE: tmdb.imageBase,
    ...QUIET_CRONS,
  };
  return { media, tmdb, env, buildS };
}

/** The API of one community: `restart()` stops the current process and starts another. */
function restarter(first: Server, start: () => Promise<Server>) {
  let current = first;
  return {
    current: () => current,
    restart: async () => {
      await current.stop();
      current = await start();
      return current;
    },
  };
}

/** Measures one community: lists, member pages, RSS after sign-ins, then every job. */
async function measureCommunity(
  engine: Engine,
  size: number,
  api: Server,
  restart: () => Promise<Server>,
  /** Adds rows past retention; on PGlite it restarts the API and returns the new process. */
  backlog: (rows: number) => Promise<Server | void>,
  buildS: Community['buildS'],
): Promise<{ community: Community; api: Server }> {
  const layout = scaleLayout(size);
  const community: Community = {
    engine,
    size,
    buildS,
    lists: {},
    member: {},
    jobs: {},
    rss: { idleMb: 0, afterLoginsMb: 0 },
  };
  // Idle RSS on a fresh start, then after `logins` sign-ins (members, one address each).
  api = await restart();
  await sleep(3000);
  community.rss.idleMb = rssMb(api.child.pid!);
  const admin = await login(api.url, layout.admin, 0);
  const members: string[] = [];
  for (const [k, i] of layout.activeMembers(options.logins).entries()) {
    members.push(await login(api.url, layout.username(i), k + 1));
  }
  await sleep(3000);
  community.rss.justAfterLoginsMb = rssMb(api.child.pid!);
  // Idle means the argon2 thread has ended too (it rests ARGON2_IDLE_MS after its last call).
  await sleep(ARGON2_IDLE_MS);
  community.rss.afterLoginsMb = rssMb(api.child.pid!);
  print(
    `   RSS idle ${community.rss.idleMb} MB, after ${options.logins + 1} sign-ins ${community.rss.justAfterLoginsMb} MB 3 s later, ${community.rss.afterLoginsMb} MB ${(ARGON2_IDLE_MS + 3000) / 1000} s later`,
  );
  const member = members[0]!;

  const jobs = async (names: [string, Record<string, unknown>?][]) => {
    if (!options.jobs) return;
    for (const [name, params] of names) {
      if (!selected(options, name)) continue;
      // Each job on a freshly started API (tokens outlive a restart): its peak RSS is then its
      // own, not what the lists and the jobs before it left in V8's heap.
      api = await restart();
      const f = await runJob(api, admin, name, params);
      community.jobs[name] = f;
      print(
        `   job ${name.padEnd(20)} ${String(f.seconds).padStart(8)} s  peak RSS ${f.peakRssMb} MB  ${f.status} ${JSON.stringify(f.summary ?? {}).slice(0, 160)}`,
      );
    }
  };
  // Issue 33: the playback pages as they read the plugin, before the plays copy exists.
  if (options.jobs && options.plugin && selected(options, 'playback_sync')) {
    community.plugin = {};
    for (const [label, path, token] of [
      ['playback/history', '/api/v1/admin/playback/history', admin],
      ['playback/profiles', '/api/v1/admin/playback/profiles', admin],
      ['playback/summary', '/api/v1/admin/playback/summary', admin],
      ['member portrait /me/playback', '/api/v1/me/playback', member],
      ['member portrait /me/playback range=all', '/api/v1/me/playback?range=all', member],
    ] as const) {
      try {
        const t = await measure(api.url, path, token);
        community.plugin[label] = t;
        print(
          `   plugin ${label.padEnd(33)} p50 ${String(t.p50).padStart(7)} ms  p95 ${String(t.p95).padStart(7)} ms`,
        );
      } catch (err) {
        print(`   plugin ${label}: ${(err as Error).message.slice(0, 200)}`);
      }
    }
  }
  // The jobs that feed the lists first (the plays copy, quality report, rankings), destructive
  // ones last.
  await jobs([
    ['playback_sync'],
    ['ranking_daily'],
    ['ranking_weekly'],
    ['media_quality_scan'],
    ['calendar_sync'],
    ['expiry_reminders'],
    ['sharing_watch'],
    ['expiry_check'],
  ]);

  const deepUsers = Math.max(2, Math.floor(size / 20 / 2.5));
  const lists: [string, string][] = [
    ['users', '/api/v1/admin/users'],
    [
      'users status=expired sort=lastLoginAt',
      '/api/v1/admin/users?status=expired&sort=lastLoginAt',
    ],
    ['users sort=expiresAt', '/api/v1/admin/users?sort=expiresAt'],
    ['users sort=username asc', '/api/v1/admin/users?sort=username&order=asc'],
    ['users status=active', '/api/v1/admin/users?status=active'],
    ['users mediaState=enabled', '/api/v1/admin/users?mediaState=enabled'],
    ['users search', '/api/v1/admin/users?search=m0042'],
    [`users page=${deepUsers}`, `/api/v1/admin/users?page=${deepUsers}`],
    ['media-requests', '/api/v1/admin/media-requests'],
    ['media-requests status=PENDING', '/api/v1/admin/media-requests?status=PENDING'],
    ['payments', '/api/v1/admin/payments'],
    ['payments status=completed', '/api/v1/admin/payments?status=completed'],
    ['audit-log', '/api/v1/admin/audit-log'],
    ['audit-log page=2000', '/api/v1/admin/audit-log?page=2000'],
    ['audit-log action=user.', '/api/v1/admin/audit-log?action=user.'],
    ['redeem-codes', '/api/v1/admin/redeem-codes'],
    ['redeem-codes status=all', '/api/v1/admin/redeem-codes?status=all'],
    ['redemptions', '/api/v1/admin/redemptions'],
    ['devices', '/api/v1/admin/devices'],
    ['devices/actions', '/api/v1/admin/devices/actions'],
    ['playback/history', '/api/v1/admin/playback/history'],
    ['playback/profiles', '/api/v1/admin/playback/profiles'],
    // Issue 36: the admin dashboard's two reads.
    ['playback/summary', '/api/v1/admin/playback/summary'],
    ['dashboard', '/api/v1/admin/dashboard'],
    ['sessions', '/api/v1/admin/sessions'],
    ['notices', '/api/v1/admin/notices'],
    ['lifecycle/upcoming', '/api/v1/admin/lifecycle/upcoming'],
    ['announcements', '/api/v1/admin/announcements'],
    ['rankings/history', '/api/v1/rankings/history'],
  ];
  // Quality titles: the libraries' reports and one low-quality group's items (after the scan).
  try {
    const libs = (await call(api.url, '/api/v1/admin/media-quality/libraries', admin)) as {
      libraries?: { libraryId: string }[];
      data?: { libraryId: string }[];
    };
    const first = (libs.libraries ?? libs.data ?? [])[0];
    lists.push(['media-quality/libraries', '/api/v1/admin/media-quality/libraries']);
    if (first) {
      const path = `/api/v1/admin/media-quality/libraries/${first.libraryId}`;
      lists.push(['media-quality/library', path]);
      const report = JSON.stringify(await call(api.url, path, admin));
      const group = /"groupId":"([^"]+)"/.exec(report)?.[1];
      if (group) lists.push(['media-quality/group', `${path}/groups/${encodeURIComponent(group)}`]);
    }
  } catch (err) {
    print(`   quality lists skipped: ${(err as Error).message.slice(0, 200)}`);
  }
  for (const [label, path] of lists) {
    if (!selected(options, label)) continue;
    try {
      community.lists[label] = await measure(api.url, path, admin);
      const t = community.lists[label];
      print(
        `   ${label.padEnd(40)} p50 ${String(t.p50).padStart(7)} ms  p95 ${String(t.p95).padStart(7)} ms`,
      );
    } catch (err) {
      print(`   ${label}: ${(err as Error).message.slice(0, 200)}`);
    }
  }
  const pages: [string, string][] = [
    ['/me', '/api/v1/me'],
    ['overview /media/stats', '/api/v1/media/stats'],
    ['overview /media-requests', '/api/v1/media-requests'],
    ['portrait /me/playback', '/api/v1/me/playback'],
    ['portrait /me/playback range=all', '/api/v1/me/playback?range=all'],
    ['rankings/latest', '/api/v1/rankings/latest'],
    ['calendar/following', '/api/v1/calendar/following'],
    ['calendar/global', '/api/v1/calendar/global'],
    ['/me/payments', '/api/v1/me/payments'],
    ['/me/announcements', '/api/v1/me/announcements'],
  ];
  for (const [label, path] of pages) {
    if (!selected(options, `member ${label}`)) continue;
    try {
      community.member[label] = await measure(api.url, path, member);
      const t = community.member[label];
      print(
        `   member ${label.padEnd(33)} p50 ${String(t.p50).padStart(7)} ms  p95 ${String(t.p95).padStart(7)} ms`,
      );
    } catch (err) {
      print(`   member ${label}: ${(err as Error).message.slice(0, 200)}`);
    }
  }
  if (options.jobs && selected(options, 'cleanup')) {
    // A million rows past retention at 100 000 members (audit and device actions hold a
    // quarter of them already).
    const t0 = performance.now();
    api = (await backlog(Math.round(size * 7.25))) ?? api;
    print(`   retention backlog of ${Math.round(size * 7.25)} rows added in ${seconds(t0)} s`);
    await jobs([['cleanup']]);
  }
  return { community, api };
}

/** `--explain`: the plans of the list queries on a fresh community of `size` (PostgreSQL). */
async function explainLists(size: number, hash: string): Promise<void> {
  const name = `usher_scale_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const now = new Date();
  const api = await startApi({ url: url.href }, QUIET_CRONS); // migrates
  const sql = new pg.Client({ connectionString: url.href });
  try {
    await api.stop();
    await sql.connect();
    await buildScaleCommunity(sql, { members: size, now, passwordHash: hash });
    const out: string[] = [];
    for (const [label, text] of EXPLAINS) {
      const params = text.includes('$1') ? [now.toISOString()] : [];
      await sql.query(text, params); // warm
      const { rows } = await sql.query(`explain (analyze, buffers) ${text}`, params);
      const plan = (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
      out.push(`-- ${label} (${size} members)\n${text}\n${plan}\n`);
    }
    const file = join(apiRoot, '.cache', 'scale-explain.txt');
    writeFileSync(file, out.join('\n'));
    print(out.join('\n'));
    print(`plans written to ${file}`);
  } finally {
    await sql.end().catch(() => undefined);
    // BENCH_KEEP_DB=1 keeps the community for plans tried by hand (psql), and says where.
    if (process.env.BENCH_KEEP_DB) print(`community kept in ${url.href}`);
    else await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

describe('bench: scale (issue 33)', () => {
  it('should measure every list, member page and job at each size', async () => {
    const started = Date.now();
    const communities: Community[] = [];
    const record = () =>
      writeFileSync(
        outFile,
        JSON.stringify({
          options,
          load: loadavg().map((l) => round(l, 2)),
          communities,
          growth: growth(communities),
          goals: scaleGoals(communities),
          seconds: Math.round((Date.now() - started) / 1000),
        }),
      );
    mkdirSync(dirname(outFile), { recursive: true });
    print(`\n==> build (node build.mjs, as npm start)`);
    expect(buildAndCopy(distCopy)).toBe(true);
    const hash = await hashPassword(PASSWORD);
    if (options.explain) {
      try {
        await explainLists(Math.max(...options.sizes), hash);
      } finally {
        rmSync(distCopy, { recursive: true, force: true });
      }
      return;
    }

    try {
      for (const engine of options.engines) {
        for (const size of sizesFor(options, engine)) {
          print(`\n==> ${engine} at ${size} members (load ${round(loadavg()[0]!, 2)})`);
          const now = new Date();
          const fakes = await startFakes(size, now);
          const cleanups: (() => Promise<void>)[] = [
            () => fakes.media.close(),
            () => fakes.tmdb.close(),
          ];
          let api: Server | undefined;
          try {
            if (engine === 'pg') {
              const name = `usher_scale_${process.pid}_${randomBytes(3).toString('hex')}`;
              const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
              await admin.connect();
              await admin.query(`create database ${name}`);
              cleanups.push(async () => {
                await admin.query(`drop database if exists ${name} with (force)`);
                await admin.end();
              });
              const url = new URL(PG_ADMIN_URL);
              url.pathname = `/${name}`;
              api = await startApi({ url: url.href }, fakes.env); // migrates and bootstraps
              const sql = new pg.Client({ connectionString: url.href });
              await sql.connect();
              cleanups.unshift(() => sql.end());
              const t0 = performance.now();
              const layout = await buildScaleCommunity(sql, {
                members: size,
                now,
                passwordHash: hash,
              });
              const usherS = seconds(t0);
              print(`   Usher database: ${JSON.stringify(layout.counts)} in ${usherS} s`);
              // Baseline: the ceiling (bare Hono + pg) idle next to the API.
              const ceiling = await freePort().then((port) =>
                startProcess(
                  [join(apiRoot, 'bench/ceiling.mjs')],
                  {
                    DATABASE_URL: url.href,
                    POOL_MAX: '10',
                    USER_ID: '00000000-0000-0000-0000-000000000000',
                  },
                  port,
                  '/health',
                ),
              );
              await sleep(2000);
              const baselineMb = rssMb(ceiling.child.pid!);
              await ceiling.stop();
              const db = { url: url.href };
              const { restart } = restarter(api, () => startApi(db, fakes.env));
              const result = await measureCommunity(
                engine,
                size,
                api,
                restart,
                async (rows) => {
                  await addRetentionBacklog(sql, { rows, members: size, now });
                },
                { usher: usherS, media: fakes.buildS },
              );
              api = result.api;
              result.community.rss.baselineMb = baselineMb;
              print(`   baseline (bare Hono + pg) idle RSS ${baselineMb} MB`);
              communities.push(result.community);
            } else {
              const dir = join(apiRoot, '.cache', `scale-pglite-${process.pid}-${size}`);
              rmSync(dir, { recursive: true, force: true });
              cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
              const first = await startApi({ dataDir: dir }, fakes.env); // migrates
              await first.stop();
              const t0 = performance.now();
              const lite = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } });
              const layout = await buildScaleCommunity(lite as SqlRunner, {
                members: size,
                now,
                passwordHash: hash,
              });
              await lite.query('checkpoint');
              await lite.close();
              const usherS = seconds(t0);
              print(`   Usher database (PGlite): ${JSON.stringify(layout.counts)} in ${usherS} s`);
              const lifecycle = restarter(await startApi({ dataDir: dir }, fakes.env), () =>
                startApi({ dataDir: dir }, fakes.env),
              );
              const result = await measureCommunity(
                engine,
                size,
                lifecycle.current(),
                lifecycle.restart,
                async (rows) => {
                  // PGlite is one process's: stop the API, add the rows, start it again.
                  await lifecycle.current().stop();
                  const db = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } });
                  await addRetentionBacklog(db as SqlRunner, { rows, members: size, now });
                  await db.close();
                  return lifecycle.restart();
                },
                { usher: usherS, media: fakes.buildS },
              );
              api = result.api;
              communities.push(result.community);
            }
          } finally {
            await api?.stop().catch(() => undefined);
            for (const c of cleanups) await c().catch(() => undefined);
          }
          record();
        }
      }
    } finally {
      rmSync(distCopy, { recursive: true, force: true });
      record();
    }
  });
});
