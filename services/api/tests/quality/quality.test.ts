// Quality reports against the fake's seeded libraries. The expected buckets are computed by hand
// from the seed's streams (testkit seed-catalog.ts):
//   movies: Dune 3840×1608 HEVC DV · Oppenheimer 3840×2160 HEVC HDR10 · Mad Max 3840×2160 HEVC
//   HDR10+ · Blade Runner 2049 1920×800 H.264 · Arrival 1920×1080 AV1 · Amélie 1280×544 H.264 ·
//   Casablanca 720×480 MPEG-2 · Summer Holiday 640×360 H.264 (all SDR unless named)
//   shows: Severance S1E1–3 3840×2160 HEVC HDR10, S2E1–2 3840×2160 HEVC DV (profile 5);
//   The Bear S1E1 and S1E3–4 (one file) 1920×1080 H.264, S1E2 1280×720 HEVC HLG; the rest virtual.
// Each test adds one movie without a usable size (the `unknown` bucket).
import {
  jobListSchema,
  qualityGroupDetailSchema,
  qualityLibraryListSchema,
  qualityReportSchema,
  qualityScanStartedSchema,
} from '@usher/contracts';
import { addMediaItem } from '@usher/testkit';
import { errorOf, HOUR, startMediaWorld, type MediaWorld } from '../media/harness.js';
import { libraryIds, startScan, waitForRun } from './harness.js';
import { domainFlavours } from '../support/flavours.js';

const MOVIES = {
  resolution: { uhd4k: 3, fhd1080: 2, hd720: 1, sd: 2, unknown: 1 },
  codec: { h264: 4, hevc: 3, av1: 1, other: 1 },
  hdr: { sdr: 6, hdr10: 1, hdr10plus: 1, hlg: 0, dolbyVision: 1 },
};
const SHOWS = {
  resolution: { uhd4k: 5, fhd1080: 2, hd720: 1, sd: 0, unknown: 0 },
  codec: { h264: 2, hevc: 6, av1: 0, other: 0 },
  hdr: { sdr: 2, hdr10: 3, hdr10plus: 0, hlg: 1, dolbyVision: 2 },
};

// One flavour (support/flavours.ts): Emby.
describe.each(domainFlavours('emby'))('media quality on %s', (flavour) => {
  let w: MediaWorld;
  let ids: Record<string, string>;
  const report = async (id: string, query = '') => {
    const res = await w.get(`/api/v1/admin/media-quality/libraries/${id}${query}`, w.adminToken);
    expect(res.status).toBe(200);
    return qualityReportSchema.parse(await res.json());
  };
  const scan = async (id: string) => {
    const res = await startScan(w, id);
    expect(res.status).toBe(202);
    const { runId } = qualityScanStartedSchema.parse(await res.json());
    return waitForRun(w, runId);
  };

  beforeEach(async () => {
    w = await startMediaWorld(flavour, { now: new Date('2026-11-20T12:00:00.000Z') });
    const lib = w.fake.seeded!.libraries.movies;
    addMediaItem(w.fake.state, {
      type: 'Movie',
      name: 'Lost Tape',
      libraryId: lib.id,
      parentId: lib.id,
      dateCreated: w.clock.now,
      providerIds: {},
      video: {
        width: 0,
        height: 0,
        codec: 'h264',
        hdr: 'SDR',
        bitDepth: 8,
        bitRate: 1_000_000,
        frameRate: 25,
      },
    });
    ids = await libraryIds(w);
  });
  afterEach(async () => w.close());

  it('should list only video libraries, all never scanned, and 404 an unknown one', async () => {
    expect(Object.keys(ids).sort()).toEqual(['movies', 'tvshows']);
    const before = await report(ids.movies!);
    expect(before).toMatchObject({ state: 'missing', computedAt: null, itemCount: 0 });
    expect(before.lowQuality.total).toBe(0);
    expect((await report('all')).state).toBe('missing');
    const res = await w.get('/api/v1/admin/media-quality/libraries/nope', w.adminToken);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('LIBRARY_NOT_FOUND');
    expect((await startScan(w, 'nope')).status).toBe(404);
    // Both jobs are registered: the sweep every 15 minutes, the scan only by hand.
    const jobs = jobListSchema.parse(
      await (await w.get('/api/v1/admin/jobs', w.adminToken)).json(),
    );
    const byName = Object.fromEntries(jobs.data.map((j) => [j.name, j]));
    expect(byName.media_quality_scan).toMatchObject({ enabled: false, disabledBy: 'manual only' });
    expect(byName.devices_enforce_blacklist).toMatchObject({
      enabled: true,
      schedule: '*/15 * * * *',
      nextRunAt: '2026-11-20T12:15:00.000Z',
    });
  });

  it('should bucket a library exactly as its streams say, and drill into a low-quality movie', async () => {
    const run = await scan(ids.movies!);
    expect(run.status).toBe('succeeded');
    const r = await report(ids.movies!);
    expect(r).toMatchObject({ state: 'fresh', itemCount: 9, scanning: false, ...MOVIES });
    expect(r.computedAt).toBe(w.clock.now.toISOString());
    // Below 1080p: the SD ones first, by name, then 720p.
    expect(r.lowQuality.data.map((g) => [g.name, g.kind, g.worstResolution, g.itemCount])).toEqual([
      ['Casablanca', 'movie', 'sd', 1],
      ['Summer Holiday 2019', 'movie', 'sd', 1],
      ['Amélie', 'movie', 'hd720', 1],
    ]);
    const paged = await report(ids.movies!, '?page=2&pageSize=2');
    expect(paged.lowQuality).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.lowQuality.data.map((g) => g.name)).toEqual(['Amélie']);
    const casablanca = w.fake.seeded!.movies.casablanca;
    const res = await w.get(
      `/api/v1/admin/media-quality/libraries/${ids.movies}/groups/${r.lowQuality.data[0]!.groupId}`,
      w.adminToken,
    );
    const detail = qualityGroupDetailSchema.parse(await res.json());
    expect(detail.items).toEqual([
      {
        itemId: casablanca.id,
        name: 'Casablanca',
        season: null,
        episode: null,
        width: 720,
        height: 480,
        resolution: 'sd',
        codec: 'mpeg2',
        hdr: 'sdr',
        bitrate: 2_000_000,
      },
    ]);
    const missing = await w.get(
      `/api/v1/admin/media-quality/libraries/${ids.movies}/groups/123`,
      w.adminToken,
    );
    expect((await errorOf(missing)).code).toBe('QUALITY_GROUP_NOT_FOUND');
  });

  it('should show a rescan at once, even at the same instant, for a library and for all', async () => {
    expect((await scan('all')).status).toBe('succeeded');
    const names = (r: { lowQuality: { data: { name: string }[] } }) =>
      r.lowQuality.data.map((g) => g.name);
    expect(names(await report(ids.movies!))).toContain('Casablanca');
    expect(names(await report('all'))).toContain('Casablanca');
    // Read twice (the second from the kept reports): the same answer.
    expect(await report('all')).toEqual(await report('all'));
    // Casablanca is replaced by a 1080p file; the clock has not moved.
    const item = w.fake.state.items.get(w.fake.seeded!.movies.casablanca.id)!;
    item.video = { ...item.video!, width: 1920, height: 1080 };
    expect((await scan(ids.movies!)).status).toBe('succeeded');
    expect(names(await report(ids.movies!))).not.toContain('Casablanca');
    expect(names(await report('all'))).not.toContain('Casablanca');
    expect((await report(ids.movies!)).resolution).toMatchObject({ fhd1080: 3, sd: 1 });
  });

  it('should scan all libraries, sum them, and group episodes by series and season', async () => {
    expect((await scan('all')).status).toBe('succeeded');
    const shows = await report(ids.tvshows!);
    expect(shows).toMatchObject({ itemCount: 8, ...SHOWS });
    const all = await report('all');
    const sum = <T extends Record<string, number>>(a: T, b: T) =>
      Object.fromEntries(Object.keys(a).map((k) => [k, a[k]! + b[k]!]));
    expect(all).toMatchObject({
      library: { id: 'all' },
      state: 'fresh',
      itemCount: 17,
      resolution: sum(MOVIES.resolution, SHOWS.resolution),
      codec: sum(MOVIES.codec, SHOWS.codec),
      hdr: sum(MOVIES.hdr, SHOWS.hdr),
      failedLibraries: [],
    });
    expect(all.lowQuality.total).toBe(4);
    const bear = all.lowQuality.data.find((g) => g.kind === 'series')!;
    expect(bear).toMatchObject({ name: 'The Bear', worstResolution: 'hd720', itemCount: 1 });
    expect(bear.groupId).toBe(w.fake.seeded!.series.bear.series.id);
    const res = await w.get(
      `/api/v1/admin/media-quality/libraries/all/groups/${bear.groupId}`,
      w.adminToken,
    );
    const detail = qualityGroupDetailSchema.parse(await res.json());
    expect(detail.items.map((i) => [i.name, i.season, i.episode, i.resolution, i.hdr])).toEqual([
      ['Hands', 1, 2, 'hd720', 'hlg'],
    ]);
    expect(detail.seasons).toEqual([{ season: 1, itemCount: 1 }]);
  });

  it('should answer 409 while a scan runs, show it scanning, and keep the report until the next scan', async () => {
    expect((await scan(ids.movies!)).status).toBe('succeeded');
    w.fake.slow(300, '/Items');
    const first = await startScan(w, ids.tvshows!);
    expect(first.status).toBe(202);
    const { runId } = qualityScanStartedSchema.parse(await first.json());
    const second = await startScan(w, ids.movies!);
    expect(second.status).toBe(409);
    expect((await errorOf(second)).code).toBe('SCAN_IN_PROGRESS');
    const list = qualityLibraryListSchema.parse(
      await (await w.get('/api/v1/admin/media-quality/libraries', w.adminToken)).json(),
    );
    const scanning = Object.fromEntries(list.data.map((l) => [l.libraryId, l.report.scanning]));
    expect(scanning).toEqual({ [ids.movies!]: false, [ids.tvshows!]: true });
    await waitForRun(w, runId);
    w.fake.clearFaults();

    // A failed rescan keeps the last report and says why.
    w.fake.fail(500, '/Items');
    const failed = await scan(ids.movies!);
    expect(failed.status).toBe('failed');
    w.fake.clearFaults();
    const kept = await report(ids.movies!);
    expect(kept).toMatchObject({ state: 'fresh', itemCount: 9, ...MOVIES });
    const after = qualityLibraryListSchema.parse(
      await (await w.get('/api/v1/admin/media-quality/libraries', w.adminToken)).json(),
    );
    expect(after.data.find((l) => l.libraryId === ids.movies)!.report.scanError).toMatch(/./);
    const all = await report('all');
    expect(all.failedLibraries.map((f) => f.id)).toEqual([ids.movies]);

    // A day later the report is stale, still shown.
    w.clock.now = new Date(w.clock.now.getTime() + 25 * HOUR);
    expect((await report(ids.movies!)).state).toBe('stale');
  });
});
