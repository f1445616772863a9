import type { QualityLibraryList, QualityReport } from '@usher/contracts';
import {
  QUALITY_CODECS,
  QUALITY_HDR,
  QUALITY_RESOLUTIONS,
  type QualityResolution,
  type QualityState,
} from '@usher/contracts/values';
import type { ChartSpec } from '../../shared/chart/chart-options';
import type { ChartTone } from '../../shared/chart/chart-palette';
import type { ChipSpec } from '../../shared/data-table';
import type { Tone } from '../../shared/status-chip';

export type QualityLibrary = QualityLibraryList['data'][number];

/** Report-state chips (60-web.md §6.6 style: icon + text + tone); `scanning` wins over them. */
export const STATE_CHIPS: Record<QualityState | 'scanning', { tone: Tone; icon: string }> = {
  fresh: { tone: 'success', icon: 'check_circle' },
  stale: { tone: 'warning', icon: 'history' },
  missing: { tone: 'neutral', icon: 'hourglass_top' },
  scanning: { tone: 'info', icon: 'autorenew' },
};

/** Resolution chips of the low-quality table and the drill-down. */
/** A resolution's colour in every chart: best (4K) to poor (SD), the same in both schemes. */
export const RESOLUTION_TONES: Record<QualityResolution, ChartTone> = {
  uhd4k: 'best',
  fhd1080: 'good',
  hd720: 'fair',
  sd: 'poor',
  unknown: 'unknown',
};

export const RESOLUTION_CHIPS: Record<QualityResolution, { tone: Tone; icon: string }> = {
  uhd4k: { tone: 'success', icon: 'check_circle' },
  fhd1080: { tone: 'success', icon: 'check_circle' },
  hd720: { tone: 'warning', icon: 'warning' },
  sd: { tone: 'error', icon: 'error' },
  unknown: { tone: 'neutral', icon: 'info' },
};

/**
 * The "All libraries" card (id `all`), summed from the list the way the API sums the report:
 * never scanned when no library was, stale when any is, the oldest scan time, and scanning
 * while any library scans.
 */
export function allLibraries(libraries: readonly QualityLibrary[], name: string): QualityLibrary {
  const reports = libraries.map((l) => l.report);
  const scanned = reports.filter((r) => r.state !== 'missing');
  const times = scanned
    .map((r) => r.computedAt)
    .filter((t): t is string => !!t)
    .sort();
  return {
    libraryId: 'all',
    name,
    collectionType: null,
    report: {
      state:
        scanned.length === 0
          ? 'missing'
          : reports.some((r) => r.state === 'stale')
            ? 'stale'
            : 'fresh',
      computedAt: times[0] ?? null,
      itemCount: reports.reduce((sum, r) => sum + r.itemCount, 0),
      scanning: reports.some((r) => r.scanning),
      scanError: null,
    },
  };
}

/** Word lookups the chart builders need (the page passes Transloco's `translate`). */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * Share of a whole as "42 (35%)" for the donut's tooltip and table. Not for bars: their value
 * axis is formatted the same way.
 */
function withShare(total: number): (value: number) => string {
  return (value) =>
    total > 0 ? `${value} (${Math.round((value / total) * 100)}%)` : String(value);
}

/**
 * The three charts of a report (60-web.md §4.3 "Media quality"): a resolution donut (4K /
 * 1080p / 720p / SD / unknown), codec bars and HDR bars. Buckets with nothing in them are left
 * out of the donut but kept in the bars (a zero bar says "none" plainly).
 */
export function qualityCharts(
  report: Pick<QualityReport, 'resolution' | 'codec' | 'hdr' | 'itemCount'>,
  t: Translate,
): { resolution: ChartSpec; codec: ChartSpec; hdr: ChartSpec } {
  const format = withShare(report.itemCount);
  const videos = t('quality.chart.videos');
  return {
    resolution: {
      type: 'donut',
      items: QUALITY_RESOLUTIONS.filter((k) => report.resolution[k] > 0).map((k) => ({
        label: t(`quality.resolution.${k}`),
        value: report.resolution[k],
        tone: RESOLUTION_TONES[k],
      })),
      categoryHeader: t('quality.chart.resolution'),
      valueHeader: videos,
      format,
    },
    codec: {
      type: 'bar-horizontal',
      items: QUALITY_CODECS.map((k) => ({
        label: t(`quality.codec.${k}`),
        value: report.codec[k],
      })),
      categoryHeader: t('quality.chart.codec'),
      valueHeader: videos,
    },
    hdr: {
      type: 'bar-horizontal',
      items: QUALITY_HDR.map((k) => ({ label: t(`quality.hdr.${k}`), value: report.hdr[k] })),
      categoryHeader: t('quality.chart.hdr'),
      valueHeader: videos,
    },
  };
}

/** A resolution as a table cell's chip. */
export const resolutionChip = (resolution: QualityResolution): ChipSpec => ({
  ...RESOLUTION_CHIPS[resolution],
  label: `quality.resolution.${resolution}`,
});
