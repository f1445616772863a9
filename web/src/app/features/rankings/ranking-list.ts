import { NgTemplateOutlet } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { RankingEntry } from '@usher/contracts';
import { LanguageSwitch } from '../../core/i18n/language';
import { ChartCard } from '../../shared/chart/chart-card';
import type { ChartSpec } from '../../shared/chart/chart-options';
import { formatDuration, formatHours, hoursOf } from '../../shared/playback/playback-format';
import { MediaLinks } from '../../shared/media-link';
import { PosterImage } from '../../shared/requests/poster-image';

/**
 * One category of a ranking (60-web.md "Rankings"): the podium of the first three with their
 * posters, the rest as a ranked list (rank, title, plays, watch time), and the watch-time bars
 * with their table alternative.
 */
@Component({
  selector: 'app-ranking-list',
  imports: [ChartCard, NgTemplateOutlet, PosterImage, TranslocoDirective],
  template: `
    <section class="category" [attr.aria-labelledby]="headingId()" *transloco="let t">
      <h2 [id]="headingId()">{{ t('rankings.category.' + category()) }}</h2>
      @if (!entries().length) {
        <p class="none" [attr.data-testid]="category() + '-none'">
          {{ t('rankings.none.' + category()) }}
        </p>
      } @else {
        <ol class="podium" [attr.data-testid]="category() + '-podium'">
          @for (e of podium(); track e.itemKey) {
            <li class="step" [class]="'place-' + e.rank" data-testid="podium-entry">
              <div class="poster">
                <ng-container
                  [ngTemplateOutlet]="posterLink"
                  [ngTemplateOutletContext]="{ $implicit: e, kind: 'poster-link' }"
                />
                <!-- Outside the link: its name is the title's, without the rank's digit. -->
                <span class="medal" aria-hidden="true">{{ e.rank }}</span>
              </div>
              <p class="title" [attr.title]="e.name">
                <span class="visually-hidden">{{ t('rankings.rank', { rank: e.rank }) }} </span>{{
                  e.name
                }}
              </p>
              <p class="numbers">
                <span>{{ t('rankings.plays', { n: e.playCount }) }}</span>
                <span>{{ duration(e.durationSeconds) }}</span>
              </p>
            </li>
          }
        </ol>
        @if (rest().length) {
          <ol class="rest" [attr.start]="4" [attr.data-testid]="category() + '-list'">
            @for (e of rest(); track e.itemKey) {
              <li data-testid="ranking-row">
                <span class="rank">{{ e.rank }}</span>
                <ng-container
                  [ngTemplateOutlet]="posterLink"
                  [ngTemplateOutletContext]="{ $implicit: e, kind: 'thumb' }"
                />
                <span class="name" [attr.title]="e.name">{{ e.name }}</span>
                <span class="stats">
                  <span class="plays">{{ t('rankings.plays', { n: e.playCount }) }}</span>
                  <span class="time">{{ duration(e.durationSeconds) }}</span>
                </span>
              </li>
            }
          </ol>
        }
        <app-chart-card
          [heading]="t('rankings.chart.' + category())"
          [spec]="chart()"
          [attr.data-testid]="category() + '-chart'"
        />
      }
      <!-- The poster opens the item on the media server (issue 36); without its address the
           link has no href. -->
      <ng-template #posterLink let-e let-kind="kind">
        @let url = itemUrl()(e.itemKey);
        <a
          [class]="kind"
          [attr.href]="url"
          target="_blank"
          rel="noopener noreferrer"
          [attr.aria-label]="url ? t('rankings.openItem', { name: e.name }) : null"
          data-testid="poster-link"
        >
          <app-poster-image
            [src]="e.posterUrl"
            [alt]="''"
            [fallbackIcon]="category() === 'movie' ? 'movie' : 'tv'"
          />
        </a>
      </ng-template>
    </section>
  `,
  styleUrl: './ranking-list.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class RankingList {
  private readonly transloco = inject(TranslocoService);
  private readonly lang = inject(LanguageSwitch).active;
  protected readonly itemUrl = inject(MediaLinks).itemUrl;

  readonly category = input.required<'movie' | 'series'>();
  readonly entries = input.required<readonly RankingEntry[]>();

  protected readonly headingId = computed(() => `ranking-${this.category()}`);
  /** In rank order for screen readers; CSS stands the winner in the middle. */
  protected readonly podium = computed(() => this.entries().filter((e) => e.rank <= 3));
  protected readonly rest = computed(() => this.entries().filter((e) => e.rank > 3));
  protected readonly duration = (seconds: number) => formatDuration(seconds, this.lang());
  protected readonly chart = computed<ChartSpec>(() => {
    const lang = this.lang();
    return {
      type: 'bar-horizontal',
      items: this.entries().map((e) => ({ label: e.name, value: hoursOf(e.durationSeconds) })),
      categoryHeader: this.transloco.translate(`rankings.category.${this.category()}`),
      valueHeader: this.transloco.translate('rankings.watchTime'),
      format: (hours: number) => formatHours(hours, lang),
    };
  });
}
