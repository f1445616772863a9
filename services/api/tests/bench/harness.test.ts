import {
  DEFAULT_OPTIONS,
  evaluateGoals,
  gcFigures,
  goal,
  interleave,
  isFlat,
  median,
  medianFigures,
  parseBenchArgs,
  parseScavenges,
  percentile,
  ratio,
  runs,
} from '../../bench/harness.js';

// The bench itself (bench/api.bench.test.ts) runs only under `npm run bench`; its pure parts are
// tested here so a broken median or goal cannot pass unnoticed.
describe('bench harness', () => {
  describe('parseBenchArgs', () => {
    it('should give the defaults without arguments', () => {
      expect(parseBenchArgs([])).toEqual(DEFAULT_OPTIONS);
    });

    it('should read --name=value and --name value', () => {
      const o = parseBenchArgs([
        '--duration=2',
        '--rounds',
        '5',
        '--users=1000',
        '--only=me,search',
      ]);
      expect(o).toMatchObject({ duration: 2, rounds: 5, users: 1000, only: ['me', 'search'] });
      expect(runs(o, 'me')).toBe(true);
      expect(runs(o, 'storm')).toBe(false);
      expect(runs(parseBenchArgs([]), 'storm')).toBe(true);
    });

    it.each([
      [['--durration=2'], /unknown option --durration/],
      [['--rounds=0'], /--rounds must be an integer ≥ 1/],
      [['--duration=1.5'], /integer/],
      [['--only=me,nope'], /unknown section "nope"/],
      [['--soak'], /--soak needs a value/],
      [['fast'], /unexpected argument "fast"/],
    ])('should refuse %j', (argv, message) => {
      expect(() => parseBenchArgs(argv)).toThrow(message);
    });
  });

  describe('statistics', () => {
    it('should take the median of odd and even samples without reordering the input', () => {
      const values = [5, 1, 3];
      expect(median(values)).toBe(3);
      expect(values).toEqual([5, 1, 3]);
      expect(median([4, 1, 3, 2])).toBe(2.5);
      expect(median([])).toBeNaN();
    });

    it('should take nearest-rank percentiles', () => {
      const values = Array.from({ length: 100 }, (_, i) => 100 - i);
      expect(percentile(values, 50)).toBe(50);
      expect(percentile(values, 99)).toBe(99);
      expect(percentile(values, 100)).toBe(100);
      expect(percentile([7], 99)).toBe(7);
    });

    it('should take each figure’s median over the rounds and add up the errors', () => {
      expect(
        medianFigures([
          { rps: 100, p50: 1, p99: 9, errors: 0 },
          { rps: 300, p50: 3, p99: 5, errors: 2 },
          { rps: 200, p50: 2, p99: 7, errors: 1 },
        ]),
      ).toEqual({ rps: 200, p50: 2, p99: 7, errors: 3 });
    });

    it('should give a ratio to two decimals, and NaN against nothing', () => {
      expect(ratio(710, 3320)).toBe(0.21);
      expect(ratio(1, 0)).toBeNaN();
    });

    it('should call RSS flat unless the last third outgrows the middle one by more than 10 %', () => {
      // The first third is warm-up: growing from idle to the working size is not a leak.
      expect(isFlat([100, 200, 300, 300, 310, 300, 320, 325, 329])).toBe(true);
      expect(isFlat([100, 200, 300, 300, 310, 300, 320, 340, 360])).toBe(false);
      expect(isFlat([100])).toBe(true);
    });
  });

  describe('interleave', () => {
    it('should alternate the cases, the first one changing every round', async () => {
      const order: string[] = [];
      const out = await interleave(3, {
        a: async () => (order.push('a'), order.length),
        b: async () => (order.push('b'), order.length),
      });
      expect(order).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
      expect(out).toEqual({ a: [1, 4, 5], b: [2, 3, 6] });
    });
  });

  describe('goals', () => {
    it('should meet a min goal at or above its limit and a max goal at or below it', () => {
      expect(goal('x', 0.6, 'min', 0.6).met).toBe(true);
      expect(goal('x', 0.59, 'min', 0.6).met).toBe(false);
      expect(goal('x', 1.5, 'max', 1.5).met).toBe(true);
      expect(goal('x', 1.51, 'max', 1.5).met).toBe(false);
    });

    it('should leave a goal undecided when its figure is missing', () => {
      expect(goal('x', undefined, 'max', 1).met).toBeNull();
      expect(goal('x', Number.NaN, 'max', 1).met).toBeNull();
    });

    it('should evaluate the figures of issue 21 against its limits', () => {
      const goals = evaluateGoals({
        meRatio100: 0.21,
        meP99Ratio100: 4.6,
        meStormShare: 0.03,
        healthP99StormRatio: 12,
        searchSubstringRatio: 4,
        coldStartPgS: 1.28,
        rssIdlePgMb: 274,
        rssFlatPg: true,
      });
      const met = Object.fromEntries(goals.map((g) => [g.name, g.met]));
      expect(met).toEqual({
        'GET /me req/s ≥ 0.60 × ceiling (100 conn)': false,
        'GET /me p99 ≤ 1.5 × ceiling p99 (100 conn)': false,
        'GET /me in login storm ≥ 0.50 × idle': false,
        '/health p99 in login storm ≤ 2 × alone': false,
        'user search (substring) ≤ 5 × raw SQL': true,
        'user search (deep page) ≤ 5 × raw SQL': null,
        'cold start PostgreSQL ≤ 1.5 s': true,
        'cold start PGlite (existing data) ≤ 4 s': null,
        'RSS idle PostgreSQL ≤ 150 MB': false,
        'RSS idle PGlite ≤ 250 MB': null,
        'RSS flat under load (PostgreSQL)': true,
        'RSS flat under load (PGlite)': null,
      });
    });
  });
});

describe('--trace-gc figures', () => {
  const line = (isolate: string, kind: string, after: number, ms: number) =>
    `[101:${isolate}]      900 ms: ${kind} 60.0 (80.0) -> ${after.toFixed(1)} (80.0) MB, pooled: 0 MB, ${ms.toFixed(2)} / 0.00 ms  (average mu = 1.000, current mu = 1.000) task;`;
  const log = [
    '{"level":"info","msg":"request"}',
    line('0x2a', 'Scavenge', 30, 1.5),
    line('0x7f', 'Scavenge', 5, 9), // a worker thread
    line('0x2a', 'Scavenge', 35, 12.25),
    line('0x2a', 'Scavenge', 34, 3),
    line('0x2a', 'Mark-Compact', 20, 30),
    '[101:0x2a]     1300 ms: Scavenge (interleaved) 45.0 (70.0) -> 21.0 (70.0) MB, 2.00 / 0.00 ms  (average mu = 0.990, current mu = 0.990) allocation failure;',
  ].join('\n');

  it('should read the main thread’s scavenges only, and mark those after a full GC', () => {
    expect(parseScavenges(log)).toEqual([
      { afterMb: 30, ms: 1.5, afterFullGc: false },
      { afterMb: 35, ms: 12.25, afterFullGc: false },
      { afterMb: 34, ms: 3, afterFullGc: false },
      { afterMb: 21, ms: 2, afterFullGc: true },
    ]);
    expect(parseScavenges('no gc here')).toEqual([]);
  });

  it('should give pauses and the mean growth per scavenge, dips counted, full GCs left out', () => {
    // Growths +5 and −1; the drop across the full GC is not one.
    expect(gcFigures(parseScavenges(log))).toEqual({
      scavenges: 4,
      medianMs: 2.5,
      maxMs: 12.25,
      promotedMb: 2,
    });
    expect(gcFigures([])).toEqual({ scavenges: 0, medianMs: NaN, maxMs: 0, promotedMb: NaN });
  });
});
