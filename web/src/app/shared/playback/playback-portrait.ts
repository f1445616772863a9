import {
  ChangeDetectionStrategy,
  Component,
  computed,
  inject,
  input,
  linkedSignal,
  output,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatButtonToggle, MatButtonToggleGroup } from '@angular/material/button-toggle';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { PlaybackProfile, PlaybackRange } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { LanguageSwitch } from '../../core/i18n/language';
import { ChartCard } from '../chart/chart-card';
import { Heatmap } from '../chart/heatmap';
import { LocalDatePipe } from '../local-date';
import { EmptyState, ErrorState } from '../page-state';
import { PosterCard } from '../poster-card/poster-card';
import { PosterRail } from '../poster-card/poster-rail';
import { PLAYBACK_RANGES, type PortraitRange, PlaybackApi } from './playback-api';
import { type PlayTotal, PLAY_SUMMARY } from './play-totals';
import { PluginNotice } from './plugin-notice';
import { playMethodsSpec, usageSpec } from './playback-charts';
import {
  HOUR_LABELS,
  PORTRAIT_MAX_DAYS,
  formatDuration,
  playbackProblem,
  rangeProblem,
  weekdayNames,
} from './playback-format';
import { TEXT_FIELD } from '../form-field';

const isRange = (value: string | undefined): value is PlaybackRange =>
  (PLAYBACK_RANGES as readonly string[]).includes(value ?? '');

/**
 * The viewing portrait (60-web.md §4.2 "My playback"): range shortcuts, totals, the 24-hour and
 * weekday charts, clients and devices, play methods, favourite genres and the last plays. It
 * serves `/console/portrait` (`userId` null: `GET /me/playback`) and the Playback tab of an
 * admin's user detail (`GET /admin/users/:id/playback`). The range comes in as inputs and a
 * change goes out as `rangeChange`, so the console page keeps it in the URL.
 */
@Component({
  selector: 'app-playback-portrait',
  imports: [
    ChartCard,
    Heatmap,
    EmptyState,
    ErrorState,
    LocalDatePipe,
    MatButton,
    MatButtonToggle,
    MatButtonToggleGroup,
    PosterCard,
    PosterRail,
    PluginNotice,
    ...PLAY_SUMMARY,
    TranslocoDirective,
    ...TEXT_FIELD,
  ],
  templateUrl: './playback-portrait.html',
  styleUrl: './playback-portrait.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PlaybackPortrait {
  private readonly api = inject(PlaybackApi);
  private readonly transloco = inject(TranslocoService);
  private readonly lang = inject(LanguageSwitch).active;

  /** Whose portrait: null for the signed-in user. */
  readonly userId = input<string | null>(null);
  readonly range = input<string | undefined>();
  readonly from = input<string | undefined>();
  readonly to = input<string | undefined>();
  readonly rangeChange = output<PortraitRange>();

  protected readonly ranges = PLAYBACK_RANGES;
  protected readonly maxDays = PORTRAIT_MAX_DAYS;
  /** The range asked for: a valid preset, else 30 days; custom only with both days. */
  protected readonly query = computed<PortraitRange>(() => {
    const range = this.range();
    const from = this.from() ?? '';
    const to = this.to() ?? '';
    if (range === 'custom') {
      return rangeProblem(from, to, PORTRAIT_MAX_DAYS) === null && from && to
        ? { range, from, to }
        : { range: '30d', from: '', to: '' };
    }
    return { range: isRange(range) ? range : '30d', from: '', to: '' };
  });
  /** The custom days being typed (applied once valid). */
  protected readonly customFrom = linkedSignal(() => this.query().from);
  protected readonly customTo = linkedSignal(() => this.query().to);
  protected readonly customOpen = linkedSignal(() => this.query().range === 'custom');
  protected readonly customProblem = computed(() =>
    rangeProblem(this.customFrom(), this.customTo(), PORTRAIT_MAX_DAYS),
  );

  private readonly data = apiResource({
    params: () => ({ userId: this.userId(), ...this.query() }),
    load: ({ userId, ...range }) => this.api.portrait(userId, range),
  });
  protected readonly portrait = this.data.value;
  protected readonly loading = this.data.loading;
  protected readonly problem = computed(() => playbackProblem(this.data.failure()));
  protected readonly error = computed(() => (this.problem() ? null : this.data.error()));

  protected readonly duration = (seconds: number) => formatDuration(seconds, this.lang());
  protected readonly totals = computed((): PlayTotal[] => {
    const totals = this.portrait()?.totals;
    if (!totals) return [];
    return [
      {
        label: 'portrait.totals.watchTime',
        seconds: totals.durationSeconds,
        testId: 'total-duration',
      },
      { label: 'portrait.totals.plays', count: totals.playCount, testId: 'total-plays' },
      { label: 'portrait.totals.activeDays', count: totals.activeDays },
      { label: 'portrait.totals.average', seconds: totals.averageSeconds },
      { label: 'portrait.totals.lastPlayed', at: totals.lastPlayedAt, never: 'portrait.never' },
    ];
  });
  protected readonly charts = computed(() => {
    const p = this.portrait();
    return p ? this.chartsOf(p) : null;
  });

  protected pick(range: PlaybackRange): void {
    if (range === 'custom') {
      this.customOpen.set(true);
      return;
    }
    this.customOpen.set(false);
    this.rangeChange.emit({ range, from: '', to: '' });
  }

  protected applyCustom(): void {
    const from = this.customFrom();
    const to = this.customTo();
    if (!from || !to || this.customProblem()) return;
    this.rangeChange.emit({ range: 'custom', from, to });
  }

  protected reload(): void {
    this.data.reload();
  }

  private chartsOf(p: PlaybackProfile) {
    const lang = this.lang();
    const t = (key: string, params?: Record<string, unknown>) =>
      this.transloco.translate(`portrait.${key}`, params);
    const plays = (value: number) => t('playsValue', { n: value });
    return {
      // The weekday × hour heatmap (issue 36) in place of an hours chart and a weekdays chart.
      weekdays: weekdayNames(lang),
      hours: HOUR_LABELS,
      plays,
      clients: usageSpec(p.clients, t('client'), 'bar-horizontal', lang, t),
      devices: usageSpec(p.devices, t('device'), 'donut', lang, t),
      methods: playMethodsSpec(p.playMethods, t),
    };
  }
}
