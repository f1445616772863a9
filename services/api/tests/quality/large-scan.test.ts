// A 20 000-item library: the scan reads it 200 items a page (never the whole library at once),
// its progress on the job run advances while it runs, and the counts come out exact.
import { qualityReportSchema, qualityScanStartedSchema } from '@usher/contracts';
import { addMediaItem } from '@usher/testkit';
import { startMediaWorld, type MediaWorld } from '../media/harness.js';
import { libraryIds, startScan, waitForRun } from './harness.js';
import { domainFlavours } from '../support/flavours.js';

const EXTRA = 20_000;
// Every fifth added item is 720p (4 000), the rest 4K HEVC HDR10.
const WIDTHS = [3840, 3840, 3840, 3840, 1280];

// One flavour (support/flavours.ts): Jellyfin.
describe.each(domainFlavours('jellyfin'))('a 20 000-item scan on %s', (flavour) => {
  let w: MediaWorld;
  beforeAll(async () => {
    w = await startMediaWorld(flavour, { now: new Date('2026-11-20T12:00:00.000Z') });
    const lib = w.fake.seeded!.libraries.movies;
    for (let i = 0; i < EXTRA; i++) {
      const width = WIDTHS[i % WIDTHS.length]!;
      addMediaItem(w.fake.state, {
        type: 'Movie',
        name: `Film ${String(i).padStart(5, '0')}`,
        libraryId: lib.id,
        parentId: lib.id,
        dateCreated: w.clock.now,
        providerIds: {},
        video: {
          width,
          height: width === 1280 ? 720 : 2160,
          codec: 'hevc',
          hdr: width === 1280 ? 'SDR' : 'HDR10',
          bitDepth: 10,
          bitRate: 10_000_000,
          frameRate: 24,
        },
      });
    }
  }, 60_000);
  afterAll(async () => w.close());

  it('should page through the library, advance its progress and count every item', async () => {
    const ids = await libraryIds(w);
    w.fake.clearRequests();
    // Slow pages, so the run can be watched while it runs.
    w.fake.slow(20, '/Items');
    const res = await startScan(w, ids.movies!);
    expect(res.status).toBe(202);
    const { runId } = qualityScanStartedSchema.parse(await res.json());
    const seen: number[] = [];
    const run = await waitForRun(w, runId, (r) => {
      const p = (r.summary as { progress?: { itemsScanned: number } } | null)?.progress;
      if (r.status === 'running' && p) seen.push(p.itemsScanned);
    });
    expect(run.status).toBe('succeeded');
    const total = EXTRA + 8;
    expect(run.summary).toMatchObject({
      progress: { itemsTotal: total, itemsScanned: total, libraries: 1, librariesDone: 1 },
    });
    // Progress was seen advancing, in steps no larger than a page.
    const distinct = [...new Set(seen)];
    expect(distinct.length).toBeGreaterThanOrEqual(5);
    expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
    expect(distinct.every((n) => n > 0 && n <= total)).toBe(true);
    // Paged reads: ceil(20 008 / 200) pages of at most 200 items each.
    // Jellyfin's adapter sends the query names camel-cased (its OpenAPI), Emby's Pascal-cased.
    const param = (q: Record<string, unknown>, name: string) =>
      Object.entries(q).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    const pages = w.fake
      .requests('/Items')
      .filter((r) => r.method === 'GET' && param(r.query, 'StartIndex') !== undefined);
    expect(pages).toHaveLength(Math.ceil(total / 200));
    expect(pages.every((r) => Number(param(r.query, 'Limit')) === 200)).toBe(true);

    const report = qualityReportSchema.parse(
      await (
        await w.get(`/api/v1/admin/media-quality/libraries/${ids.movies}`, w.adminToken)
      ).json(),
    );
    expect(report.itemCount).toBe(total);
    expect(report.resolution).toEqual({
      uhd4k: 3 + 16_000,
      fhd1080: 2,
      hd720: 1 + 4_000,
      sd: 2,
      unknown: 0,
    });
    expect(report.hdr.hdr10).toBe(1 + 16_000);
    expect(report.lowQuality.total).toBe(3 + 4_000);
    expect(report.lowQuality.data).toHaveLength(20);
  }, 120_000);
});
