// Pure parts of `npm run bench:scale` (bench/scale.bench.test.ts): arguments, figures per route
// and job, growth ratios and the goals of issue 33. Unit-tested in tests/bench/scale-harness.test.ts.
import { percentile, round } from './harness.js';

export type Engine = 'pg' | 'pglite';

export interface ScaleOptions {
  /** Community sizes, smallest first (growth ratios compare the last with the first). */
  sizes: number[];
  engines: Engine[];
  /** The largest community built on PGlite (building and serving bigger ones is impractical). */
  pgliteMax: number;
  /** Sequential requests per route (after three warm-ups). */
  samples: number;
  /** Sign-ins before the idle RSS reading. */
  logins: number;
  /** Skip the jobs (lists and member pages only). */
  jobs: boolean;
  /** Only build the largest PostgreSQL community and print the list queries' plans. */
  explain: boolean;
  /** Measure only the lists, member calls and jobs whose name matches (case-insensitive). */
  only: RegExp | null;
  /** Measure the playback pages on the plugin before the plays copy (`--no-plugin` skips it). */
  plugin: boolean;
}

export const DEFAULT_SCALE_OPTIONS: ScaleOptions = {
  sizes: [10_000, 100_000],
  engines: ['pg', 'pglite'],
  pgliteMax: 100_000,
  samples: 20,
  logins: 20,
  jobs: true,
  explain: false,
  only: null,
  plugin: true,
};

/**
 * `--sizes=10000,100000 --engines=pg,pglite --pglite-max=10000 --samples=20 --logins=20 --no-jobs
 * --only=<regex> --no-plugin` (e.g. `--only=calendar_sync|audit`: a focused run while working on
 * one figure; `--no-plugin`: the playback pages on the copy only, not first on the plugin).
 */
export function parseScaleArgs(argv: readonly string[]): ScaleOptions {
  const o: ScaleOptions = { ...DEFAULT_SCALE_OPTIONS };
  const ints = (v: string) =>
    v.split(',').map((s) => {
      const n = Number(s.replace(/_/g, ''));
      if (!Number.isSafeInteger(n) || n < 100) throw new Error(`not a size: ${s}`);
      return n;
    });
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=') as [string, string?];
    if (key === 'sizes') o.sizes = ints(value).sort((a, b) => a - b);
    else if (key === 'engines') {
      const engines = value.split(',');
      for (const e of engines) if (e !== 'pg' && e !== 'pglite') throw new Error(`engine? ${e}`);
      o.engines = engines as Engine[];
    } else if (key === 'pglite-max') o.pgliteMax = ints(value)[0]!;
    else if (key === 'samples') o.samples = Math.max(1, Number(value) || 0);
    else if (key === 'logins') o.logins = Math.max(1, Number(value) || 0);
    else if (key === 'no-jobs') o.jobs = false;
    else if (key === 'no-plugin') o.plugin = false;
    else if (key === 'explain') o.explain = true;
    else if (key === 'only') {
      if (value === '') throw new Error('--only needs a pattern');
      o.only = new RegExp(value, 'i');
    } else throw new Error(`unknown option --${key}`);
  }
  return o;
}

/** Whether a list, member call or job is measured in this run. */
export const selected = (o: ScaleOptions, name: string): boolean => o.only?.test(name) ?? true;

/** The sizes built on an engine. */
export const sizesFor = (o: ScaleOptions, engine: Engine): number[] =>
  engine === 'pg' ? o.sizes : o.sizes.filter((s) => s <= o.pgliteMax);

export interface Timing {
  p50: number;
  p95: number;
}

export function timing(ms: readonly number[]): Timing {
  return { p50: round(percentile(ms, 50), 1), p95: round(percentile(ms, 95), 1) };
}

export interface JobFigure {
  seconds: number;
  peakRssMb: number;
  status: string;
  summary?: unknown;
}

/** Everything one community (engine × size) measured. */
export interface Community {
  engine: Engine;
  size: number;
  buildS: { usher: number; media: number };
  /** Admin lists, by label (route and query). */
  lists: Record<string, Timing>;
  /** Member pages' calls, by label. */
  member: Record<string, Timing>;
  jobs: Record<string, JobFigure>;
  /**
   * The playback pages read from the Playback Reporting plugin, measured before `playback_sync`
   * filled the plays copy (issue 33: what a server sees until the copy's first pass is done).
   */
  plugin?: Record<string, Timing>;
  /**
   * Idle RSS on a fresh start; 3 s after the sign-ins (`justAfterLoginsMb`, the argon2 thread
   * still resting); once the argon2 thread has ended (`afterLoginsMb`, the goal's figure).
   */
  rss: { idleMb: number; justAfterLoginsMb?: number; afterLoginsMb: number; baselineMb?: number };
}

export interface ScaleGoal {
  name: string;
  figure: number | null;
  limit: number;
  met: boolean | null;
}

const at = (c: Community[], engine: Engine, size: number) =>
  c.find((x) => x.engine === engine && x.size === size);

/** Growth of every figure from the smallest to the largest community of each engine. */
export function growth(communities: Community[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const engine of ['pg', 'pglite'] as const) {
    const mine = communities.filter((c) => c.engine === engine).sort((a, b) => a.size - b.size);
    if (mine.length < 2) continue;
    const small = mine[0]!;
    const big = mine.at(-1)!;
    const r = (a: number, b: number) => (b > 0 ? round(a / b, 2) : Number.NaN);
    const g: Record<string, number> = {};
    for (const [k, v] of Object.entries(big.lists))
      if (small.lists[k]) g[k] = r(v.p95, small.lists[k].p95);
    for (const [k, v] of Object.entries(big.member))
      if (small.member[k]) g[k] = r(v.p95, small.member[k].p95);
    for (const [k, v] of Object.entries(big.jobs))
      if (small.jobs[k]) g[`job ${k}`] = r(v.seconds, small.jobs[k].seconds);
    out[`${engine} ${small.size}→${big.size}`] = g;
  }
  return out;
}

/** The goals of issue 33, judged on the largest community of each engine. */
export function scaleGoals(communities: Community[]): ScaleGoal[] {
  const goals: ScaleGoal[] = [];
  const add = (name: string, figure: number | undefined, limit: number, kind: 'max' = 'max') =>
    goals.push({
      name,
      figure: figure === undefined || Number.isNaN(figure) ? null : figure,
      limit,
      met: figure === undefined || Number.isNaN(figure) ? null : kind === 'max' && figure <= limit,
    });
  for (const engine of ['pg', 'pglite'] as const) {
    const sizes = communities.filter((c) => c.engine === engine).map((c) => c.size);
    if (sizes.length === 0) continue;
    const big = at(communities, engine, Math.max(...sizes))!;
    const small = at(communities, engine, Math.min(...sizes))!;
    const tag = `${engine} ${big.size}`;
    const listLimit = engine === 'pg' ? 100 : 250;
    for (const [k, v] of Object.entries(big.lists)) {
      add(`${tag}: ${k} p95 ms`, v.p95, listLimit);
      if (small !== big && small.lists[k]) {
        add(
          `${tag}: ${k} p95 vs ${small.size}`,
          round(v.p95 / Math.max(small.lists[k].p95, 1), 2),
          2,
        );
      }
    }
    if (engine === 'pg') {
      for (const [k, v] of Object.entries(big.member))
        add(`${tag}: member ${k} p95 ms`, v.p95, 100);
    }
    const scale = small === big ? 1 : big.size / small.size;
    for (const [k, v] of Object.entries(big.jobs)) {
      add(`${tag}: job ${k} peak RSS MB`, v.peakRssMb, 300);
      if (small !== big && small.jobs[k]) {
        // Linear growth: the time ratio no more than the size ratio (jobs under 1 s are noise).
        const ratio = round(v.seconds / Math.max(small.jobs[k].seconds, 1), 2);
        add(`${tag}: job ${k} growth (× for ${scale} × members)`, ratio, scale);
      }
    }
    if (engine === 'pg') {
      add(`${tag}: expiry_check s`, big.jobs['expiry_check']?.seconds, 300);
      add(`${tag}: ranking_daily s`, big.jobs['ranking_daily']?.seconds, 10);
      add(`${tag}: media_quality_scan s`, big.jobs['media_quality_scan']?.seconds, 60);
      add(`${tag}: idle RSS after sign-ins MB`, big.rss.afterLoginsMb, 150);
    }
  }
  return goals;
}
