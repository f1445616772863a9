// The pure parts of `npm run bench` (bench/run.mjs → api.bench.test.ts): options, statistics,
// goals and the report. Unit-tested in tests/bench/harness.test.ts; nothing here measures.

export interface BenchOptions {
  /** Seconds of each autocannon run. */
  duration: number;
  /** Interleaved rounds (A, B, A, B…) per comparison; the report takes the medians. */
  rounds: number;
  /** Seeded members for the admin user search. */
  users: number;
  /** Seconds of the PGlite soak (RSS under load). */
  soak: number;
  /** Cold starts per engine and case. */
  starts: number;
  /** Sections to run; all when empty. */
  only: Section[];
}

export const SECTIONS = ['me', 'storm', 'search', 'start', 'pglite', 'sharing'] as const;
export type Section = (typeof SECTIONS)[number];

export const DEFAULT_OPTIONS: BenchOptions = {
  duration: 5,
  rounds: 3,
  users: 100_000,
  soak: 60,
  starts: 3,
  only: [],
};

const positive = (name: string, raw: string, min: number): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return n;
};

/**
 * `--duration=5 --rounds=3 --users=100000 --soak=60 --starts=3 --only=me,search` (also
 * `--name value`). Unknown options are refused, so a typo does not silently run the full bench.
 */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { ...DEFAULT_OPTIONS, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unexpected argument "${arg}"`);
    const name = match[1]!;
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    switch (name) {
      case 'duration':
        options.duration = positive(name, value, 1);
        break;
      case 'rounds':
        options.rounds = positive(name, value, 1);
        break;
      case 'users':
        options.users = positive(name, value, 100);
        break;
      case 'soak':
        options.soak = positive(name, value, 5);
        break;
      case 'starts':
        options.starts = positive(name, value, 1);
        break;
      case 'only':
        options.only = value.split(',').map((s) => {
          if (!(SECTIONS as readonly string[]).includes(s)) {
            throw new Error(`--only: unknown section "${s}" (known: ${SECTIONS.join(', ')})`);
          }
          return s as Section;
        });
        break;
      default:
        throw new Error(`unknown option --${name}`);
    }
  }
  return options;
}

export const runs = (options: BenchOptions, section: Section): boolean =>
  options.only.length === 0 || options.only.includes(section);

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (`p` in 0–100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

/** One load run's figures (autocannon's, or a sequential sampler's). */
export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Replies that were not 2xx, and socket errors/timeouts: a run with any is suspect. */
  errors: number;
  /** The server's CPU microseconds (user + system) per request, where measured. */
  cpuUs?: number;
}

/** The median of each figure over the rounds of one case. */
export function medianFigures(samples: readonly LoadFigures[]): LoadFigures {
  return {
    rps: round(median(samples.map((s) => s.rps))),
    p50: round(median(samples.map((s) => s.p50)), 2),
    p99: round(median(samples.map((s) => s.p99)), 2),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
  };
}

/**
 * Runs `cases` in interleaved order for `rounds` rounds (A, B, A, B… with the first case
 * alternating each round, so neither always runs right after the other), and returns every
 * case's samples in round order.
 */
export async function interleave<C extends Record<string, () => Promise<unknown>>>(
  rounds: number,
  cases: C,
): Promise<{ [K in keyof C]: Awaited<ReturnType<C[K]>>[] }> {
  const names = Object.keys(cases) as (keyof C)[];
  const out = Object.fromEntries(names.map((n) => [n, [] as unknown[]])) as {
    [K in keyof C]: Awaited<ReturnType<C[K]>>[];
  };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order)
      out[name].push((await cases[name]!()) as Awaited<ReturnType<C[typeof name]>>);
  }
  return out;
}

export const round = (n: number, digits = 0): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export const ratio = (a: number, b: number): number => (b > 0 ? round(a / b, 2) : Number.NaN);

/**
 * Whether RSS stayed flat under load: the first third of the samples is warm-up (heap and pools
 * growing to their working size); the last third's peak must stay within `tolerance` of the
 * middle third's.
 */
export function isFlat(samplesMb: readonly number[], tolerance = 0.1): boolean {
  if (samplesMb.length < 3) return true;
  const third = Math.floor(samplesMb.length / 3);
  const middle = Math.max(...samplesMb.slice(third, 2 * third));
  const last = Math.max(...samplesMb.slice(2 * third));
  return last <= middle * (1 + tolerance);
}

export interface Goal {
  name: string;
  /** What was measured, in the goal's unit. */
  value: number;
  /** `value ≥ limit` for 'min', `value ≤ limit` for 'max'. */
  limit: number;
  kind: 'min' | 'max';
  met: boolean | null;
}

/** A goal; `met` is null when the figure is missing (section not run, or NaN). */
export function goal(
  name: string,
  value: number | undefined,
  kind: 'min' | 'max',
  limit: number,
): Goal {
  const v = value ?? Number.NaN;
  const met = Number.isFinite(v) ? (kind === 'min' ? v >= limit : v <= limit) : null;
  return { name, value: v, limit, kind, met };
}

/** The figures the goals read (`undefined` when a section did not run). */
export interface GoalInputs {
  meRatio100?: number;
  meP99Ratio100?: number;
  meStormShare?: number;
  healthP99StormRatio?: number;
  searchSubstringRatio?: number;
  searchDeepRatio?: number;
  coldStartPgS?: number;
  coldStartPgliteExistingS?: number;
  rssIdlePgMb?: number;
  rssIdlePgliteMb?: number;
  rssFlatPg?: boolean;
  rssFlatPglite?: boolean;
}

const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);

/** The goals of issue 21. */
export function evaluateGoals(g: GoalInputs): Goal[] {
  return [
    goal('GET /me req/s ≥ 0.60 × ceiling (100 conn)', g.meRatio100, 'min', 0.6),
    goal('GET /me p99 ≤ 1.5 × ceiling p99 (100 conn)', g.meP99Ratio100, 'max', 1.5),
    goal('GET /me in login storm ≥ 0.50 × idle', g.meStormShare, 'min', 0.5),
    goal('/health p99 in login storm ≤ 2 × alone', g.healthP99StormRatio, 'max', 2),
    goal('user search (substring) ≤ 5 × raw SQL', g.searchSubstringRatio, 'max', 5),
    goal('user search (deep page) ≤ 5 × raw SQL', g.searchDeepRatio, 'max', 5),
    goal('cold start PostgreSQL ≤ 1.5 s', g.coldStartPgS, 'max', 1.5),
    goal('cold start PGlite (existing data) ≤ 4 s', g.coldStartPgliteExistingS, 'max', 4),
    goal('RSS idle PostgreSQL ≤ 150 MB', g.rssIdlePgMb, 'max', 150),
    goal('RSS idle PGlite ≤ 250 MB', g.rssIdlePgliteMb, 'max', 250),
    goal('RSS flat under load (PostgreSQL)', flag(g.rssFlatPg), 'min', 1),
    goal('RSS flat under load (PGlite)', flag(g.rssFlatPglite), 'min', 1),
  ];
}

export function formatFigures(label: string, f: LoadFigures): string {
  return (
    `${label.padEnd(40)} ${String(f.rps).padStart(7)} req/s  p50 ${f.p50.toFixed(2).padStart(8)} ms` +
    `  p99 ${f.p99.toFixed(2).padStart(8)} ms${f.errors ? `  (${f.errors} errors/non-2xx)` : ''}`
  );
}

/** One minor GC of a process started with `--trace-gc`. */
export interface Scavenge {
  /** Pause in milliseconds. */
  ms: number;
  /** Heap in use after it, MB. */
  afterMb: number;
  /** A full GC ran since the scavenge before it (so the heap's change says nothing of promotion). */
  afterFullGc: boolean;
}

const TRACE_GC = /^\[\d+:(0x[0-9a-f]+)(?::\d+)?\]\s+[\d.]+ ms: (Scavenge|Mark-Compact|Mark-Sweep)/;
const SCAVENGE =
  /Scavenge(?: \([^)]*\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/;

/**
 * The main thread's scavenges in `--trace-gc` output (a log with other lines between them).
 * Worker threads (the argon2 ones) trace under their own isolate address; the main thread is the
 * address with the most GC lines.
 */
export function parseScavenges(text: string): Scavenge[] {
  const byIsolate = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = TRACE_GC.exec(line);
    if (!match) continue;
    const lines = byIsolate.get(match[1]!) ?? [];
    lines.push(line);
    byIsolate.set(match[1]!, lines);
  }
  const main = [...byIsolate.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const scavenges: Scavenge[] = [];
  let fullGc = false;
  for (const line of main) {
    const m = SCAVENGE.exec(line);
    if (!m) {
      fullGc = true;
      continue;
    }
    scavenges.push({ afterMb: Number(m[1]), ms: Number(m[2]), afterFullGc: fullGc });
    fullGc = false;
  }
  return scavenges;
}

/** What a load did to the young generation: pauses, and how much the heap grew per scavenge. */
export interface GcFigures {
  scavenges: number;
  medianMs: number;
  maxMs: number;
  /**
   * Mean growth of the heap after each scavenge over the one before, leaving out those with a
   * full GC in between: what each promoted to the old generation (~0 when requests die young).
   * A mean, not a median of the rises: the heap's figure also dips a little between scavenges.
   */
  promotedMb: number;
}

export function gcFigures(scavenges: readonly Scavenge[]): GcFigures {
  const growth = scavenges
    .slice(1)
    .flatMap((s, i) => (s.afterFullGc ? [] : [s.afterMb - scavenges[i]!.afterMb]));
  const mean = growth.length ? growth.reduce((a, b) => a + b, 0) / growth.length : Number.NaN;
  return {
    scavenges: scavenges.length,
    medianMs: round(median(scavenges.map((s) => s.ms)), 2),
    maxMs: round(Math.max(0, ...scavenges.map((s) => s.ms)), 2),
    promotedMb: round(mean, 2),
  };
}
