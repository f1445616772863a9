import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  signal,
  untracked,
} from '@angular/core';
import { MatAnchor, MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { JobRun } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';
import { LongActionTracker } from '../../shared/long-action';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { StatusChip } from '../../shared/status-chip';
import { QualityApi } from './quality-api';
import { type QualityLibrary, STATE_CHIPS, allLibraries } from './quality.chart';
import { ScanFollower, announceScan, scanCovers } from './scan-follower';
import { ScanProgress } from './scan-progress';

/** The icon of a library card by the server's collection type. */
export function libraryIcon(library: Pick<QualityLibrary, 'libraryId' | 'collectionType'>): string {
  if (library.libraryId === 'all') return 'all_inclusive';
  return library.collectionType === 'tvshows' ? 'tv' : 'movie';
}

/**
 * `/admin/media-quality` (60-web.md §4.3 "Media quality"): a card per video library plus "All
 * libraries", each with its report state, when it was computed, and a Scan button that follows
 * the scan's progress (§5). Only one scan runs at a time, so every Scan button waits for it.
 */
@Component({
  selector: 'app-quality-libraries-page',
  imports: [
    MatAnchor,
    MatButton,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    EmptyState,
    ErrorState,
    FormError,
    LocalDatePipe,
    ScanProgress,
    StatusChip,
  ],
  providers: [LongActionTracker, ScanFollower],
  templateUrl: './libraries-page.html',
  styleUrl: './libraries-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class QualityLibrariesPage {
  private readonly api = inject(QualityApi);
  private readonly follower = inject(ScanFollower);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);
  private readonly transloco = inject(TranslocoService);

  private readonly list = apiResource({ params: () => true, load: () => this.api.libraries() });
  protected readonly error = this.list.error;
  protected readonly scan = this.follower.state;
  protected readonly chips = STATE_CHIPS;
  protected readonly icon = libraryIcon;
  protected readonly actionError = signal<ErrorText | null>(null);
  /** "All libraries" first, then the server's libraries. */
  protected readonly cards = computed<QualityLibrary[] | null>(() => {
    const libraries = this.list.value()?.data;
    if (!libraries) return null;
    if (libraries.length === 0) return [];
    const all = allLibraries(libraries, this.transloco.translate('quality.allLibraries'));
    return [all, ...libraries];
  });
  /** Whether any scan runs: every Scan button waits (one scan at a time, server-wide). */
  protected readonly busy = computed(
    () => !!this.scan() || !!this.list.value()?.data.some((l) => l.report.scanning),
  );

  /** Whether a card shows "Scanning": the server says so, or the scan this page follows covers it. */
  protected scanningCard(library: QualityLibrary): boolean {
    return library.report.scanning || scanCovers(this.scan(), library.libraryId);
  }

  constructor() {
    // A scan started elsewhere (another admin, the jobs page): follow it too.
    effect(() => {
      const scanning = this.list.value()?.data.some((l) => l.report.scanning);
      if (scanning && !untracked(this.scan)) {
        void untracked(() => this.follow(() => this.follower.attach(), ''));
      }
    });
  }

  protected reload(): void {
    this.list.reload();
  }

  protected start(library: QualityLibrary): void {
    void this.follow(() => this.follower.start(library.libraryId), library.name);
  }

  private async follow(action: () => Promise<JobRun | null>, name: string): Promise<void> {
    this.actionError.set(null);
    try {
      const run = await action();
      // The run names its library; the card's name is known only for a scan started here.
      announceScan(this.notifier, run, name || this.transloco.translate('quality.allLibraries'));
    } catch (error) {
      this.actionError.set(this.errors.describe(error));
    }
    this.list.reload();
  }
}
