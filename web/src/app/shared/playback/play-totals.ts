import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { TranslocoDirective } from '@jsverse/transloco';
import type { ChartSpec } from '../chart/chart-options';
import { ChartCard } from '../chart/chart-card';
import { LanguageSwitch } from '../../core/i18n/language';
import { CountPipe } from '../count';
import { LocalDatePipe } from '../local-date';
import { formatDuration } from './playback-format';

/**
 * One figure of a playback summary: the label's translation key and the value, a count, a
 * duration in seconds or a moment (`never` said when there is none).
 */
export interface PlayTotal {
  label: string;
  count?: number;
  seconds?: number;
  at?: string | null;
  /** Translation key said for an `at` that is null. */
  never?: string;
  testId?: string;
}

/**
 * The tiles of a playback summary (issue 34: the portrait's totals and the admin playback
 * page's profile summary were two copies): a label over each figure, as many to a row as fit;
 * `five` keeps the portrait's layout (two to a row on a phone, the last across; five from 720 px).
 */
@Component({
  selector: 'app-play-totals',
  imports: [TranslocoDirective, CountPipe, LocalDatePipe],
  template: `
    <dl [class.five]="layout() === 'five'" *transloco="let t">
      @for (total of totals(); track total.label) {
        <div>
          <dt>{{ t(total.label) }}</dt>
          <dd [class.date]="total.at !== undefined" [attr.data-testid]="total.testId ?? null">
            @if (total.count !== undefined) {
              {{ total.count | count }}
            } @else if (total.seconds !== undefined) {
              {{ duration(total.seconds) }}
            } @else if (total.at) {
              {{ total.at | localDate: 'dateTime' }}
            } @else {
              {{ t(total.never ?? '') }}
            }
          </dd>
        </div>
      }
    </dl>
  `,
  styleUrl: './play-totals.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PlayTotals {
  private readonly lang = inject(LanguageSwitch).active;
  readonly totals = input.required<readonly PlayTotal[]>();
  /** `fit`: as many to a row as fit (140 px each at least); `five`: the portrait's rows. */
  readonly layout = input<'fit' | 'five'>('fit');

  protected readonly duration = (seconds: number) => formatDuration(seconds, this.lang());
}

/**
 * How everyone (or one member) played and in which apps: the two chart cards the admin playback
 * page and the portrait both show, drawn into the parent's chart grid (`display: contents`).
 */
@Component({
  selector: 'app-play-mix',
  imports: [TranslocoDirective, ChartCard],
  template: `
    <ng-container *transloco="let t">
      <app-chart-card
        data-testid="chart-methods"
        [heading]="t('portrait.chart.methods')"
        [spec]="methods()"
      />
      <app-chart-card
        data-testid="chart-clients"
        [heading]="t('portrait.chart.clients')"
        [spec]="clients()"
      />
    </ng-container>
  `,
  styles: `
    :host {
      display: contents;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PlayMix {
  readonly methods = input.required<ChartSpec>();
  readonly clients = input.required<ChartSpec>();
}

export const PLAY_SUMMARY = [PlayTotals, PlayMix] as const;
