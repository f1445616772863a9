// The pure parts of `npm run bench:scale` (bench/scale-harness.ts): its options, figures, growth
// ratios and the goals of issue 33 (judged on the largest community of each engine).
import {
  DEFAULT_SCALE_OPTIONS,
  growth,
  parseScaleArgs,
  selected,
  scaleGoals,
  sizesFor,
  timing,
  type Community,
} from '../../bench/scale-harness.js';

const community = (over: Partial<Community> & Pick<Community, 'engine' | 'size'>): Community => ({
  buildS: { usher: 1, media: 1 },
  lists: {},
  member: {},
  jobs: {},
  rss: { idleMb: 100, afterLoginsMb: 120 },
  ...over,
});

describe('bench:scale options', () => {
  it('should default to 10 000 and 100 000 members on both engines', () => {
    expect(parseScaleArgs([])).toEqual(DEFAULT_SCALE_OPTIONS);
    expect(DEFAULT_SCALE_OPTIONS.sizes).toEqual([10_000, 100_000]);
  });

  it('should read sizes (sorted), engines, the PGlite cap, samples, logins and --no-jobs', () => {
    const o = parseScaleArgs([
      '--sizes=100_000,10000',
      '--engines=pg',
      '--pglite-max=10000',
      '--samples=7',
      '--logins=3',
      '--no-jobs',
    ]);
    expect(o).toEqual({
      sizes: [10_000, 100_000],
      engines: ['pg'],
      pgliteMax: 10_000,
      samples: 7,
      logins: 3,
      jobs: false,
      explain: false,
      only: null,
      plugin: true,
    });
    expect(parseScaleArgs(['--explain']).explain).toBe(true);
    expect(parseScaleArgs(['--no-plugin']).plugin).toBe(false);
    expect(sizesFor({ ...o, engines: ['pg', 'pglite'] }, 'pglite')).toEqual([10_000]);
    expect(sizesFor(o, 'pg')).toEqual([10_000, 100_000]);
  });

  it('should select the figures --only names, case-insensitively, and all without it', () => {
    const o = parseScaleArgs(['--only=calendar_sync|AUDIT']);
    expect(selected(o, 'calendar_sync')).toBe(true);
    expect(selected(o, 'audit-log page=2000')).toBe(true);
    expect(selected(o, 'expiry_check')).toBe(false);
    expect(selected(parseScaleArgs([]), 'expiry_check')).toBe(true);
    expect(() => parseScaleArgs(['--only='])).toThrow('--only needs a pattern');
  });

  it('should refuse an unknown option, engine or size', () => {
    expect(() => parseScaleArgs(['--users=5'])).toThrow('unknown option --users');
    expect(() => parseScaleArgs(['--engines=mysql'])).toThrow('engine');
    expect(() => parseScaleArgs(['--sizes=ten'])).toThrow('not a size');
  });
});

describe('bench:scale figures', () => {
  it('should take nearest-rank p50 and p95', () => {
    const ms = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(timing(ms)).toEqual({ p50: 10, p95: 19 });
  });

  it('should compute growth from the smallest to the largest community per engine', () => {
    const small = community({
      engine: 'pg',
      size: 10_000,
      lists: { users: { p50: 5, p95: 10 } },
      jobs: { cleanup: { seconds: 2, peakRssMb: 200, status: 'succeeded' } },
    });
    const big = community({
      engine: 'pg',
      size: 100_000,
      lists: { users: { p50: 8, p95: 15 } },
      jobs: { cleanup: { seconds: 30, peakRssMb: 250, status: 'succeeded' } },
    });
    expect(growth([big, small])).toEqual({
      'pg 10000→100000': { users: 1.5, 'job cleanup': 15 },
    });
  });

  it('should judge every goal of the issue on the largest community', () => {
    const jobs = (s: number) => ({
      expiry_check: { seconds: 200 * s, peakRssMb: 280, status: 'succeeded' },
      ranking_daily: { seconds: 12 * s, peakRssMb: 310, status: 'succeeded' },
      media_quality_scan: { seconds: 50 * s, peakRssMb: 250, status: 'succeeded' },
    });
    const goals = scaleGoals([
      community({
        engine: 'pg',
        size: 10_000,
        lists: { users: { p50: 5, p95: 20 } },
        jobs: jobs(0.1),
      }),
      community({
        engine: 'pg',
        size: 100_000,
        lists: { users: { p50: 50, p95: 90 } },
        member: { '/me': { p50: 1, p95: 2 } },
        jobs: jobs(1),
        rss: { idleMb: 120, afterLoginsMb: 140 },
      }),
      community({ engine: 'pglite', size: 10_000, lists: { users: { p50: 50, p95: 240 } } }),
    ]);
    const by = Object.fromEntries(goals.map((g) => [g.name, g]));
    expect(by['pg 100000: users p95 ms']).toEqual({
      name: 'pg 100000: users p95 ms',
      figure: 90,
      limit: 100,
      met: true,
    });
    expect(by['pg 100000: users p95 vs 10000']).toMatchObject({
      figure: 4.5,
      limit: 2,
      met: false,
    });
    expect(by['pg 100000: member /me p95 ms']).toMatchObject({ met: true });
    expect(by['pg 100000: job ranking_daily peak RSS MB']).toMatchObject({
      figure: 310,
      met: false,
    });
    expect(by['pg 100000: job expiry_check growth (× for 10 × members)']).toMatchObject({
      figure: 10,
      limit: 10,
      met: true,
    });
    expect(by['pg 100000: expiry_check s']).toMatchObject({ figure: 200, limit: 300, met: true });
    expect(by['pg 100000: ranking_daily s']).toMatchObject({ figure: 12, limit: 10, met: false });
    expect(by['pg 100000: media_quality_scan s']).toMatchObject({ figure: 50, met: true });
    expect(by['pg 100000: idle RSS after sign-ins MB']).toMatchObject({
      figure: 140,
      limit: 150,
      met: true,
    });
    expect(by['pglite 10000: users p95 ms']).toMatchObject({ figure: 240, limit: 250, met: true });
  });

  it('should report a goal without a figure as not judged', () => {
    const goals = scaleGoals([community({ engine: 'pg', size: 100_000 })]);
    expect(goals.find((g) => g.name === 'pg 100000: expiry_check s')).toMatchObject({
      figure: null,
      met: null,
    });
  });
});
