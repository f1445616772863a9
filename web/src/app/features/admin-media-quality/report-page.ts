import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  input,
  signal,
  untracked,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { JobRun, QualityGroupDetail, QualityItem, QualityReport } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { LanguageSwitch } from '../../core/i18n/language';
import { Notifier } from '../../core/notifier';
import { ChartCard } from '../../shared/chart/chart-card';
import { FormError } from '../../shared/form-error';
import { listPage } from '../../shared/list-page';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { LocalDatePipe } from '../../shared/local-date';
import { LongActionTracker } from '../../shared/long-action';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { StatusChip } from '../../shared/status-chip';
import { SubmitButton } from '../../shared/submit-button';
import { QualityApi } from './quality-api';
import { RESOLUTION_CHIPS, STATE_CHIPS, qualityCharts, resolutionChip } from './quality.chart';
import { ScanFollower, announceScan } from './scan-follower';
import { ScanProgress } from './scan-progress';
import { paging } from '../../shared/list-paging';

type LowQualityGroup = QualityReport['lowQuality']['data'][number];

/** The items of a drill-down, one block per season (a movie: one block without a season). */
export interface SeasonBlock {
  season: number | null;
  items: QualityItem[];
}

export function seasonBlocks(detail: QualityGroupDetail): SeasonBlock[] {
  const blocks: SeasonBlock[] = [];
  for (const item of detail.items) {
    const last = blocks.at(-1);
    if (last && last.season === item.season) last.items.push(item);
    else blocks.push({ season: item.season, items: [item] });
  }
  return blocks;
}

/** "S01E02" for an episode, '' for a movie. */
export function episodeCode(item: Pick<QualityItem, 'season' | 'episode'>): string {
  if (item.season === null && item.episode === null) return '';
  const two = (n: number | null) => (n === null ? '??' : String(n).padStart(2, '0'));
  return `S${two(item.season)}E${two(item.episode)}`;
}

/**
 * `/admin/media-quality/:libraryId` (`all` sums every library; 60-web.md §4.3 "Media quality"):
 * the report's state and Scan, the resolution donut and codec and HDR bars, the paged
 * low-quality titles, and `?group=` drills into one title's files (episodes by season).
 */
@Component({
  selector: 'app-quality-report-page',
  imports: [
    MatButton,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    ChartCard,
    EmptyState,
    ErrorState,
    FormError,
    DATA_TABLE,
    LocalDatePipe,
    ScanProgress,
    StatusChip,
    SubmitButton,
  ],
  providers: [LongActionTracker, ScanFollower],
  templateUrl: './report-page.html',
  styleUrl: './report-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class QualityReportPage {
  private readonly api = inject(QualityApi);
  private readonly follower = inject(ScanFollower);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);
  private readonly transloco = inject(TranslocoService);
  private readonly language = inject(LanguageSwitch);

  /** Route param: a library id or `all`. */
  readonly libraryId = input.required<string>();
  // Query params.
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();
  readonly group = input<string | undefined>();

  /** The whole report; the list below pages its low-quality groups. */
  protected readonly report = signal<QualityReport | null>(null);
  protected readonly groups = listPage({
    query: () => ({
      libraryId: this.libraryId(),
      ...paging(this.page(), this.pageSize()),
    }),
    load: async (q) => {
      const report = await this.api.report(q.libraryId, q.page, q.pageSize);
      this.report.set(report);
      return report.lowQuality;
    },
    filters: [],
    filtered: () => false,
  });
  protected readonly detail = apiResource({
    params: () => {
      const group = this.group();
      return group ? { libraryId: this.libraryId(), group } : undefined;
    },
    load: (p) => this.api.group(p.libraryId, p.group),
  });
  protected readonly blocks = computed(() => {
    const detail = this.detail.value();
    return detail ? seasonBlocks(detail) : [];
  });

  protected readonly scan = this.follower.state;
  protected readonly chips = STATE_CHIPS;
  protected readonly resolutionChips = RESOLUTION_CHIPS;
  protected readonly itemTable: TableSpec<QualityItem> = {
    columns: [
      { id: 'item', header: 'quality.col.item' },
      { id: 'resolution', header: 'quality.col.resolution' },
      {
        id: 'codec',
        header: 'quality.col.codec',
        cellClass: 'mono',
        text: (item) => item.codec.toUpperCase(),
      },
      { id: 'hdr', header: 'quality.col.hdr', key: (item) => `quality.hdr.${item.hdr}` },
      { id: 'bitrate', header: 'quality.col.bitrate', text: (item) => this.bitrate(item.bitrate) },
    ],
    trackBy: (item: QualityItem) => item.itemId,
    tableTestId: 'group-items',
  };
  protected readonly groupTable: TableSpec<LowQualityGroup> = {
    columns: [
      { id: 'title', header: 'quality.col.title' },
      { id: 'kind', header: 'quality.col.kind', key: (g) => `quality.kind.${g.kind}` },
      { id: 'worst', header: 'quality.col.worst', chip: (g) => resolutionChip(g.worstResolution) },
      {
        id: 'items',
        header: 'quality.col.items',
        key: (g) => [
          g.kind === 'series' ? 'quality.episodes' : 'quality.files',
          { n: g.itemCount },
        ],
      },
    ],
    rowAttrs: (group: LowQualityGroup) => ({ 'data-group': group.groupId }),
    trackBy: (group: LowQualityGroup) => group.groupId,
    emptyIcon: 'check_circle',
    empty: 'quality.noLowQuality',
    testId: 'low-quality',
  };
  protected readonly actionError = signal<ErrorText | null>(null);
  protected readonly name = computed(() => {
    const report = this.report();
    this.language.active();
    if (!report) return '';
    return report.library.id === 'all'
      ? this.transloco.translate('quality.allLibraries')
      : report.library.name;
  });
  protected readonly scanning = computed(() => !!this.scan() || !!this.report()?.scanning);
  protected readonly charts = computed(() => {
    const report = this.report();
    // Read so the charts are worded again after a language switch.
    this.language.active();
    if (!report || report.itemCount === 0) return null;
    return qualityCharts(report, (key, params) => this.transloco.translate(key, params));
  });
  protected readonly episodeCode = episodeCode;

  constructor() {
    // A scan that was already running when the page opened: follow it, then show its result.
    effect(() => {
      if (this.report()?.scanning && !untracked(this.scan)) {
        void untracked(() => this.follow(() => this.follower.attach()));
      }
    });
  }

  protected reload(): void {
    this.groups.reload();
  }

  protected startScan(): void {
    void this.follow(() => this.follower.start(this.libraryId()));
  }

  protected bitrate(bps: number | null): string {
    if (bps === null) return '—';
    return this.transloco.translate('quality.mbps', { n: (bps / 1_000_000).toFixed(1) });
  }

  protected size(item: QualityItem): string {
    return item.width && item.height ? `${item.width} × ${item.height}` : '';
  }

  private async follow(action: () => Promise<JobRun | null>): Promise<void> {
    this.actionError.set(null);
    try {
      announceScan(this.notifier, await action(), this.name());
    } catch (error) {
      this.actionError.set(this.errors.describe(error));
    }
    this.groups.reload();
    this.detail.reload();
  }
}
