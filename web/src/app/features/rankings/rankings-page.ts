import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatButtonToggle, MatButtonToggleGroup } from '@angular/material/button-toggle';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { RankingBatch, RankingPeriod } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { LanguageSwitch } from '../../core/i18n/language';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { rowAction } from '../../shared/action';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { formatDuration, playbackProblem } from '../../shared/playback/playback-format';
import { PluginNotice } from '../../shared/playback/plugin-notice';
import { askGenerate } from './generate-dialog';
import { RANKING_PERIODS, RankingsApi } from './rankings-api';
import { periodLabel } from './rankings-format';
import { RankingList } from './ranking-list';
import { MediaLinks } from '../../shared/media-link';
import { PageHeader } from '../../shared/page-header';

const HISTORY_PAGE_SIZE = 10;

/**
 * `/console/rankings` (60-web.md "Rankings"): Daily | Weekly, the latest batch (or the one
 * chosen in the history, `?batch=`) as a podium and ranked lists of movies and series with
 * watch-time bars, and the paged history of past periods. Admins can preview the running period
 * (computed, not stored) and generate it now, choosing whether it is posted to the group chat.
 */
@Component({
  selector: 'app-rankings-page',
  imports: [
    PageHeader,
    EmptyState,
    ErrorState,
    FormError,
    LocalDatePipe,
    MatButton,
    MatButtonToggle,
    MatButtonToggleGroup,
    MatIcon,
    PluginNotice,
    RankingList,
    RouterLink,
    TranslocoDirective,
  ],
  templateUrl: './rankings-page.html',
  styleUrl: './rankings-page.scss',
  // One read of the media server's address for both categories' poster links.
  providers: [MediaLinks],
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class RankingsPage {
  private readonly api = inject(RankingsApi);
  private readonly router = inject(Router);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);
  private readonly lang = inject(LanguageSwitch).active;
  protected readonly isAdmin = inject(SessionStore).isAdmin;

  // Query params (bound by the router).
  readonly period = input<string | undefined>();
  readonly batch = input<string | undefined>();

  protected readonly periods = RANKING_PERIODS;
  protected readonly activePeriod = computed<RankingPeriod>(() =>
    this.period() === 'weekly' ? 'weekly' : 'daily',
  );
  protected readonly historyPage = signal(1);
  /** A computed-now ranking an admin asked for; shown instead of the stored one until closed. */
  protected readonly preview = signal<RankingBatch | null>(null);
  /** Preview or generate, one at a time. */
  protected readonly acting = rowAction();
  protected readonly pluginMissing = signal(false);

  private readonly stored = apiResource({
    params: () => ({ period: this.activePeriod(), batch: this.batch() ?? '' }),
    load: ({ period, batch }) => (batch ? this.api.batch(batch) : this.api.latest(period)),
  });
  private readonly history = apiResource({
    params: () => ({ period: this.activePeriod(), page: this.historyPage() }),
    load: ({ period, page }) => this.api.history(period, page, HISTORY_PAGE_SIZE),
  });

  protected readonly shown = computed(() => this.preview() ?? this.stored.value());
  protected readonly loading = this.stored.loading;
  protected readonly readProblem = computed(() => playbackProblem(this.stored.failure()));
  protected readonly error = this.stored.error;
  protected readonly historyRows = computed(() => this.history.value()?.data ?? []);
  protected readonly historyError = this.history.error;
  protected readonly historyPages = computed(() => {
    const page = this.history.value();
    return page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1;
  });

  protected readonly label = (b: { periodStart: string; periodEnd: string }) =>
    periodLabel(b.periodStart, b.periodEnd, this.lang());
  protected readonly duration = (seconds: number) => formatDuration(seconds, this.lang());
  protected pickPeriod(period: RankingPeriod): void {
    this.preview.set(null);
    this.historyPage.set(1);
    void this.router.navigate([], {
      queryParams: { period: period === 'daily' ? null : period, batch: null },
      queryParamsHandling: 'merge',
    });
  }

  protected showLatest(): void {
    this.preview.set(null);
    void this.router.navigate([], { queryParams: { batch: null }, queryParamsHandling: 'merge' });
  }

  protected retry(): void {
    this.stored.reload();
  }

  protected async runPreview(): Promise<void> {
    await this.act('preview', async () => {
      this.preview.set(await this.api.preview(this.activePeriod()));
    });
  }

  protected async runGenerate(): Promise<void> {
    const choice = await askGenerate(this.dialog, this.activePeriod());
    if (!choice) return;
    await this.act('generate', async () => {
      await this.api.generate(this.activePeriod(), choice.push);
      this.preview.set(null);
      this.notifier.show(choice.push ? 'rankings.generate.donePushed' : 'rankings.generate.done');
      this.historyPage.set(1);
      if (this.batch()) this.showLatest();
      this.stored.reload();
      this.history.reload();
    });
  }

  private async act(kind: 'preview' | 'generate', work: () => Promise<void>): Promise<void> {
    this.pluginMissing.set(false);
    await this.acting.runFor(kind, work, {
      handle: (error) => {
        const plugin = playbackProblem(error) === 'plugin';
        if (plugin) this.pluginMissing.set(true);
        return plugin;
      },
    });
  }
}
