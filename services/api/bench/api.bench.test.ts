import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import autocannon, { type Options as LoadOptions, type Request as LoadRequest } from 'autocannon';
import pg from 'pg';
import { hashPassword } from '../src/security/passwords.js';
import { freshSecrets } from '../tests/support/config.js';
import {
  evaluateGoals,
  formatFigures,
  gcFigures,
  interleave,
  isFlat,
  median,
  medianFigures,
  parseBenchArgs,
  parseScavenges,
  ratio,
  round,
  runs,
  type GoalInputs,
  type LoadFigures,
  type Scavenge,
} from './harness.js';
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

/**
 * `npm run bench` (bench/run.mjs runs this file): the built API, started as `npm start` starts it,
 * against a bare Hono + pg ceiling on a throwaway PostgreSQL database, interleaved, medians
 * reported. Figures go to BENCH_OUT for run.mjs, which prints the goals and the `BENCH` line.
 * Nothing here asserts a speed: the machine is shared and the goals are read from the report.
 */
const options = parseBenchArgs(JSON.parse(process.env.BENCH_ARGS ?? '[]') as string[]);
const outFile = process.env.BENCH_OUT ?? join(apiRoot, '.cache/bench.json');
const apiNodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
const ceilingNodeArgs = (process.env.BENCH_CEILING_NODE_ARGS ?? '').split(' ').filter(Boolean);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const POOL_MAX = 10;
const distCopy = join(apiRoot, '.cache', `bench-dist-${process.pid}`);
const PASSWORD = 'bench-password-1234';
const print = (line: string) => process.stdout.write(`${line}\n`);
const load1 = () => round(loadavg()[0]!, 2);

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs a load and adds the server's CPU microseconds per answered request (`cpuUs`). */
async function withCpu(pid: number, run: () => Promise<LoadFigures>): Promise<LoadFigures> {
  const before = cpuSeconds(pid);
  const t0 = performance.now();
  const figures = await run();
  const requests = figures.rps * ((performance.now() - t0) / 1000);
  return { ...figures, cpuUs: round(((cpuSeconds(pid) - before) * 1e6) / Math.max(requests, 1)) };
}

/** Runs a load while reading `pid`'s RSS once a second: the load's figures and the readings. */
async function rssDuring(
  pid: number,
  run: () => Promise<LoadFigures>,
): Promise<{ figures: LoadFigures; samples: number[] }> {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(rssMb(pid)), 1000);
  try {
    return { figures: await run(), samples };
  } finally {
    clearInterval(timer);
  }
}

const secrets = freshSecrets();
function startApi(db: { url: string } | { dataDir: string }): Promise<Server> {
  return freePort().then((port) =>
    startProcess(
      [...apiNodeArgs, join(distCopy, 'main.js')],
      {
        ...secrets,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        // As behind the deployment's proxy: the login storm's members each come from their own
        // address (X-Forwarded-For), not all from one that the per-address limit would slow.
        TRUST_PROXY_HOPS: '1',
        ADMIN_PASSWORD: PASSWORD,
        DATABASE_POOL_MAX: String(POOL_MAX),
        ...('url' in db ? { DATABASE_URL: db.url } : { PGLITE_DATA_DIR: db.dataDir }),
      },
      port,
      '/health',
    ),
  );
}

/** One autocannon run; `stop()` ends it early (the login storm). */
function fire(opts: LoadOptions): { done: Promise<LoadFigures>; stop(): void } {
  let stop = () => undefined as void;
  const done = new Promise<LoadFigures>((resolve, reject) => {
    const instance = autocannon({ timeout: 30, ...opts }, (err, result) => {
      if (err) return reject(err);
      resolve({
        rps: round(result.requests.total / Math.max(result.duration, 0.001)),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
      });
    });
    stop = () => instance.stop();
  });
  return { done, stop: () => stop() };
}

const get = (url: string, connections: number, token?: string, duration = options.duration) =>
  fire({
    url,
    connections,
    duration,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  }).done;

const login = (base: string, username: string) => signIn(base, username, PASSWORD);

/** Median milliseconds of `n` sequential calls. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

describe('bench: the built API against a bare Hono + pg ceiling', () => {
  it('should measure and write the figures', async () => {
    // `--only=sharing` runs bench/sharing.bench.test.ts alone (in-process, nothing to build).
    if (options.only.length > 0 && options.only.every((s) => s === 'sharing')) return;
    const figures: Record<string, unknown> = {
      options,
      load: { start: loadavg().map((l) => round(l, 2)) },
    };
    const goals: GoalInputs = {};
    const record = () =>
      writeFileSync(outFile, JSON.stringify({ figures, goals: evaluateGoals(goals) }));
    mkdirSync(dirname(outFile), { recursive: true });

    print(`\n==> build (node build.mjs, as npm start)`);
    expect(buildAndCopy(distCopy)).toBe(true);

    const dbName = `usher_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const dbUrl = new URL(PG_ADMIN_URL);
    dbUrl.pathname = `/${dbName}`;
    const cacheDir = join(apiRoot, '.cache', `bench-${process.pid}`);
    mkdirSync(cacheDir, { recursive: true });
    const servers: Server[] = [];
    const rssSamples: number[] = [];
    let sampler: NodeJS.Timeout | undefined;
    let db: pg.Client | undefined;
    try {
      print(`==> PostgreSQL database ${dbName}: migrate, seed ${options.users} members`);
      const api = await startApi({ url: dbUrl.href });
      servers.push(api);
      const sql = new pg.Client({ connectionString: dbUrl.href });
      db = sql;
      sql.on('error', () => undefined);
      await sql.connect();
      const hash = await hashPassword(PASSWORD);
      await sql.query(
        `insert into users (id, username, email, password_hash, role, registered_via, created_at,
           expires_at)
         select gen_random_uuid(), 'm_' || substr(md5(i::text), 1, 12),
           'm' || i || '@bench.example', $1, 'user', 'admin',
           now() - make_interval(secs => i), now() + interval '30 days'
         from generate_series(1, $2::int) i`,
        [hash, options.users],
      );
      await sql.query(
        `insert into users (id, username, password_hash, role, registered_via)
         values (gen_random_uuid(), 'benchadmin', $1, 'admin', 'admin'),
                (gen_random_uuid(), 'benchmember', $1, 'user', 'admin')`,
        [hash],
      );
      await sql.query('analyze users');
      const member = await sql.query<{ id: string }>(
        `select id from users where username = 'benchmember'`,
      );
      const stormNames = (
        await sql.query<{ username: string }>(
          `select username from users where username like 'm\\_%' order by username limit 1000`,
        )
      ).rows.map((r) => r.username);

      await sleep(3000);
      const rssIdlePg = rssMb(api.child.pid!);
      print(`RSS idle (PostgreSQL): ${rssIdlePg} MB`);
      sampler = setInterval(() => {
        try {
          rssSamples.push(rssMb(api.child.pid!));
        } catch {
          // process gone
        }
      }, 1000);

      const ceiling = await freePort().then((port) =>
        startProcess(
          [...ceilingNodeArgs, join(apiRoot, 'bench/ceiling.mjs')],
          { DATABASE_URL: dbUrl.href, POOL_MAX: String(POOL_MAX), USER_ID: member.rows[0]!.id },
          port,
          '/health',
        ),
      );
      servers.push(ceiling);
      const token = await login(api.url, 'benchmember');
      const me = `${api.url}/api/v1/me`;

      if (runs(options, 'me')) {
        print(
          `\n==> GET /api/v1/me vs the ceiling (${options.rounds} interleaved rounds of ${options.duration} s, medians)`,
        );
        await get(me, 100, token, 2);
        await get(`${ceiling.url}/me`, 100, undefined, 2);
        const section: Record<string, unknown> = {};
        for (const connections of [10, 100]) {
          const loads: number[] = [];
          const scavenges: Record<'api' | 'ceiling', Scavenge[]> = { api: [], ceiling: [] };
          /** One round, with the server's CPU and the scavenges it traced meanwhile. */
          const measured = async (
            name: 'api' | 'ceiling',
            server: Server,
            run: () => Promise<LoadFigures>,
          ) => {
            const from = server.output().length;
            try {
              return await withCpu(server.child.pid!, run);
            } finally {
              loads.push(load1());
              scavenges[name].push(...parseScavenges(server.output().slice(from)));
            }
          };
          const samples = await interleave(options.rounds, {
            api: () => measured('api', api, () => get(me, connections, token)),
            ceiling: () =>
              measured('ceiling', ceiling, () => get(`${ceiling.url}/me`, connections)),
          });
          const a = medianFigures(samples.api);
          const c = medianFigures(samples.ceiling);
          const r = ratio(a.rps, c.rps);
          const p99r = ratio(a.p99, c.p99);
          print(formatFigures(`usher   /me  ${connections} conn`, a));
          print(formatFigures(`ceiling /me  ${connections} conn`, c));
          print(`ratio req/s ${r}, p99 ${p99r} × ceiling, load avg ${round(median(loads), 2)}`);
          // CPU per request moves far less with the machine's load than req/s does.
          const cpuUs = {
            api: round(median(samples.api.map((f) => f.cpuUs ?? 0))),
            ceiling: round(median(samples.ceiling.map((f) => f.cpuUs ?? 0))),
          };
          print(`CPU µs per request: usher ${cpuUs.api}, ceiling ${cpuUs.ceiling}`);
          // Requests should die young: pauses of a few ms and ~0 MB promoted per scavenge. A
          // structure that kept them alive showed as 10–60 ms and ~5 MB (docs/performance.md).
          const gc = { api: gcFigures(scavenges.api), ceiling: gcFigures(scavenges.ceiling) };
          print(
            `scavenges: usher ${gc.api.scavenges}, median ${gc.api.medianMs} ms (max ${gc.api.maxMs}), ` +
              `${gc.api.promotedMb} MB promoted each; ceiling ${gc.ceiling.scavenges}, ` +
              `median ${gc.ceiling.medianMs} ms (max ${gc.ceiling.maxMs}), ${gc.ceiling.promotedMb} MB`,
          );
          section[`c${connections}`] = {
            api: a,
            ceiling: c,
            ratio: r,
            p99Ratio: p99r,
            cpuUs,
            gc,
            load1: round(median(loads), 2),
          };
          if (connections === 100) {
            goals.meRatio100 = r;
            goals.meP99Ratio100 = p99r;
          }
        }
        figures.me = section;
        record();
      }

      if (runs(options, 'storm')) {
        print(`\n==> login storm (50 connections of argon2id logins) vs /health and /me`);
        let next = 0;
        const storm = () => {
          const s = fire({
            url: `${api.url}/api/v1/auth/login`,
            connections: 50,
            duration: options.duration + 30,
            requests: [
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                setupRequest: (req: LoadRequest) => {
                  const i = next++ % stormNames.length;
                  return {
                    ...req,
                    headers: {
                      ...req.headers,
                      'x-forwarded-for': `10.21.${i >> 8}.${i & 255}`,
                    },
                    body: JSON.stringify({ username: stormNames[i], password: PASSWORD }),
                  };
                },
              },
            ],
          });
          return s;
        };
        const during = async (fn: () => Promise<LoadFigures>) => {
          const s = storm();
          await sleep(1000);
          const f = await fn();
          s.stop();
          const logins = await s.done;
          return { ...f, logins: logins.rps, loginErrors: logins.errors };
        };
        const loads: number[] = [];
        const samples = await interleave(options.rounds, {
          health: () => get(`${api.url}/health`, 10),
          healthStorm: () =>
            during(() => get(`${api.url}/health`, 10)).finally(() => loads.push(load1())),
          me: () => get(me, 10, token),
          meStorm: () => during(() => get(me, 10, token)),
        });
        const health = medianFigures(samples.health);
        const healthStorm = medianFigures(samples.healthStorm);
        const meIdle = medianFigures(samples.me);
        const meStorm = medianFigures(samples.meStorm);
        const stormed = [...samples.healthStorm, ...samples.meStorm];
        const logins = round(median(stormed.map((s) => s.logins)));
        const loginErrors = stormed.reduce((n, s) => n + s.loginErrors, 0);
        print(formatFigures('/health alone (10 conn)', health));
        print(formatFigures('/health in storm', healthStorm));
        print(formatFigures('/me idle (10 conn)', meIdle));
        print(formatFigures('/me in storm', meStorm));
        print(
          `logins/s in storm ${logins} (${loginErrors} not 200), load avg ${round(median(loads), 2)}`,
        );
        goals.healthP99StormRatio = ratio(healthStorm.p99, health.p99);
        goals.meStormShare = ratio(meStorm.rps, meIdle.rps);
        figures.storm = {
          health,
          healthStorm,
          meIdle,
          meStorm,
          logins,
          loginErrors,
          load1: round(median(loads), 2),
        };
        record();
      }

      if (runs(options, 'search')) {
        print(`\n==> admin user search over ${options.users + 2} users vs the raw SQL`);
        const adminToken = await login(api.url, 'benchadmin');
        // Four characters of one member's name: a handful of hits among md5-derived names.
        const term = (await sql.query<{ t: string }>(`select substr(md5('777'), 3, 4) as t`))
          .rows[0]!.t;
        const deepPage = Math.max(2, Math.floor(options.users / 20 / 2.5));
        const order = 'order by created_at desc nulls last, id desc limit 20';
        const cases = {
          substring: {
            http: `/api/v1/admin/users?search=${term}`,
            count: `select count(*) from users where (username ilike $1 or email ilike $1)`,
            rows: `select * from users where (username ilike $1 or email ilike $1) ${order} offset 0`,
            params: [`%${term}%`],
          },
          deep: {
            http: `/api/v1/admin/users?page=${deepPage}`,
            count: `select count(*) from users`,
            rows: `select * from users ${order} offset ${(deepPage - 1) * 20}`,
            params: [],
          },
        };
        const section: Record<string, unknown> = {};
        for (const [name, c] of Object.entries(cases)) {
          let hits = 0;
          const callApi = async () => {
            const res = await fetch(`${api.url}${c.http}`, {
              headers: { authorization: `Bearer ${adminToken}` },
            });
            const body = (await res.json()) as { total?: number };
            if (res.status !== 200) throw new Error(`${c.http}: ${res.status}`);
            hits = body.total ?? 0;
          };
          const callRaw = async () => {
            await sql.query(c.count, c.params);
            await sql.query(c.rows, c.params);
          };
          for (let i = 0; i < 3; i++) {
            await callApi();
            await callRaw();
          }
          const samples = await interleave(Math.max(10, options.rounds * 5), {
            api: () => timed(callApi),
            raw: () => timed(callRaw),
          });
          const apiMs = round(median(samples.api), 2);
          const rawMs = round(median(samples.raw), 2);
          const r = ratio(apiMs, rawMs);
          print(
            `${name.padEnd(10)} ${c.http}: API ${apiMs} ms, raw SQL ${rawMs} ms, ${r} ×, total ${hits}`,
          );
          section[name] = { apiMs, rawMs, ratio: r, total: hits };
        }
        goals.searchSubstringRatio = (section.substring as { ratio: number }).ratio;
        goals.searchDeepRatio = (section.deep as { ratio: number }).ratio;
        figures.search = { ...section, load1: load1() };
        record();
      }

      // Flatness is judged on a steady load, as on PGlite: the sections above differ (the storm
      // starts an argon2 thread, the search reads big pages), so thirds of their series compare
      // one section's peak with another's rather than the start of a load with its end.
      clearInterval(sampler);
      sampler = undefined;
      let soakSamples: number[] = [];
      let soakMe: LoadFigures | undefined;
      if (rssSamples.length > 0) {
        print(`\n==> PostgreSQL: RSS under ${options.soak} s of GET /me`);
        const soak = await rssDuring(api.child.pid!, () => get(me, 10, token, options.soak));
        ({ figures: soakMe, samples: soakSamples } = soak);
        rssSamples.push(...soakSamples);
      }
      const rssLoadPg = rssSamples.length ? Math.max(...rssSamples) : Number.NaN;
      goals.rssIdlePgMb = rssIdlePg;
      if (soakSamples.length >= 10) goals.rssFlatPg = isFlat(soakSamples);
      figures.rssPg = {
        idleMb: rssIdlePg,
        loadMaxMb: rssLoadPg,
        endMb: rssSamples.at(-1),
        seconds: rssSamples.length,
        flat: goals.rssFlatPg,
        soak: soakMe && {
          me: soakMe,
          flat: goals.rssFlatPg,
          samplesMb: soakSamples.map((mb) => Math.round(mb)),
        },
        // Every second's RSS (MB) through all the sections and the soak, in order.
        samplesMb: rssSamples.map((mb) => Math.round(mb)),
      };
      if (soakMe) print(formatFigures('PostgreSQL /me soak (10 conn)', soakMe));
      print(
        `\nRSS PostgreSQL: idle ${rssIdlePg} MB, under load max ${rssLoadPg} MB over ${rssSamples.length} s, flat under the soak ${goals.rssFlatPg}`,
      );
      record();
      await sql.end();
      db = undefined;
      await api.stop();
      await ceiling.stop();

      if (runs(options, 'start')) {
        print(`\n==> cold start to healthy (${options.starts} interleaved rounds)`);
        const existingDir = join(cacheDir, 'pglite-existing');
        const prime = await startApi({ dataDir: existingDir });
        await prime.stop();
        const samples = await interleave(options.starts, {
          pg: async () => {
            const s = await startApi({ url: dbUrl.href });
            await s.stop();
            return s.startMs;
          },
          pgliteFresh: async () => {
            const dir = join(cacheDir, `pglite-fresh-${randomBytes(3).toString('hex')}`);
            const s = await startApi({ dataDir: dir });
            await s.stop();
            rmSync(dir, { recursive: true, force: true });
            return s.startMs;
          },
          pgliteExisting: async () => {
            const s = await startApi({ dataDir: existingDir });
            await s.stop();
            return s.startMs;
          },
        });
        const start = {
          pgS: round(median(samples.pg) / 1000, 2),
          pgliteFreshS: round(median(samples.pgliteFresh) / 1000, 2),
          pgliteExistingS: round(median(samples.pgliteExisting) / 1000, 2),
          load1: load1(),
        };
        print(
          `PostgreSQL ${start.pgS} s, PGlite fresh ${start.pgliteFreshS} s, PGlite existing ${start.pgliteExistingS} s (load ${start.load1})`,
        );
        goals.coldStartPgS = start.pgS;
        goals.coldStartPgliteExistingS = start.pgliteExistingS;
        figures.coldStart = start;
        record();
      }

      if (runs(options, 'pglite')) {
        print(`\n==> PGlite (existing data): RSS idle and under ${options.soak} s of GET /me`);
        const dir = join(cacheDir, 'pglite-soak');
        // Idle is read after a restart on existing data, the steady state: a first start also
        // carries initdb's peak, which WebAssembly memory never gives back.
        const first = await startApi({ dataDir: dir });
        await sleep(3000);
        const idleFresh = rssMb(first.child.pid!);
        await first.stop();
        const lite = await startApi({ dataDir: dir });
        servers.push(lite);
        await sleep(3000);
        const idle = rssMb(lite.child.pid!);
        const liteToken = await login(lite.url, 'admin');
        const { figures: f, samples } = await rssDuring(lite.child.pid!, () =>
          get(`${lite.url}/api/v1/me`, 10, liteToken, options.soak),
        );
        await lite.stop();
        const soak = {
          idleMb: idle,
          idleFreshMb: idleFresh,
          loadMaxMb: Math.max(...samples),
          endMb: samples.at(-1),
          flat: isFlat(samples),
          me: f,
          load1: load1(),
        };
        print(formatFigures('PGlite /me (10 conn)', f));
        print(
          `RSS PGlite: idle ${idle} MB (${idleFresh} MB after its first start), under load max ${soak.loadMaxMb} MB, flat ${soak.flat}`,
        );
        goals.rssIdlePgliteMb = idle;
        goals.rssFlatPglite = soak.flat;
        figures.rssPglite = soak;
      }
      (figures.load as Record<string, unknown>).end = loadavg().map((l) => round(l, 2));
      record();
    } finally {
      if (sampler) clearInterval(sampler);
      await db?.end().catch(() => undefined);
      for (const s of servers) await s.stop().catch(() => undefined);
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
      rmSync(cacheDir, { recursive: true, force: true });
      rmSync(distCopy, { recursive: true, force: true });
    }
  });
});
