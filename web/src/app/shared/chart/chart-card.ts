import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  afterNextRender,
  computed,
  inject,
  input,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { TranslocoDirective } from '@jsverse/transloco';
import { NGX_ECHARTS_CONFIG, NgxEchartsDirective, type NgxEchartsConfig } from 'ngx-echarts';
import { ECHARTS_LOADER } from './echarts-loader';
import { ChartPalette } from './chart-palette';
import {
  type ChartSpec,
  chartDescription,
  chartHeight,
  chartOptions,
  plainNumber,
} from './chart-options';

let nextId = 0;

/**
 * `ChartCard` (60-web.md §1, §6.5): a titled chart with a "Show as table" toggle. Pages pass a
 * `ChartSpec` (items, kind, value format), never ECharts options. ECharts itself loads lazily
 * on the first chart drawn, the colours follow the light/dark theme, and the chart carries an
 * aria description listing every value; the table is the full alternative.
 */
@Component({
  selector: 'app-chart-card',
  imports: [MatButton, NgxEchartsDirective, TranslocoDirective],
  providers: [
    {
      provide: NGX_ECHARTS_CONFIG,
      useFactory: (): NgxEchartsConfig => ({ echarts: inject(ECHARTS_LOADER) }),
    },
  ],
  template: `
    <section class="chart-card" [attr.aria-labelledby]="headingId" *transloco="let t">
      <header>
        <h2 [id]="headingId">{{ heading() }}</h2>
        @if (spec().items.length) {
          <button
            mat-button
            type="button"
            data-testid="chart-toggle"
            [attr.aria-pressed]="asTable()"
            [attr.aria-controls]="bodyId"
            (click)="asTable.set(!asTable())"
          >
            {{ t('chart.showTable') }}
          </button>
        }
      </header>
      <div class="body" [id]="bodyId">
        @if (!spec().items.length) {
          <p class="empty" data-testid="chart-empty">{{ empty() || t('chart.empty') }}</p>
        } @else if (asTable()) {
          <!-- Focusable so a keyboard can scroll a wide table; named by the card's heading. -->
          <div
            class="table-wrap"
            role="region"
            tabindex="0"
            data-testid="chart-table-region"
            [attr.aria-labelledby]="headingId"
          >
            <table data-testid="chart-table">
              <caption class="visually-hidden">
                {{
                  heading()
                }}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{{ spec().categoryHeader }}</th>
                  <th scope="col" class="value">{{ spec().valueHeader }}</th>
                </tr>
              </thead>
              <tbody>
                @for (item of spec().items; track $index) {
                  <tr>
                    <th scope="row">{{ item.label }}</th>
                    <td class="value">{{ format()(item.value) }}</td>
                  </tr>
                }
              </tbody>
            </table>
          </div>
        } @else {
          <div
            echarts
            class="chart"
            data-testid="chart"
            role="img"
            [attr.aria-label]="description()"
            [options]="options()"
            [style.min-height.px]="height()"
          ></div>
        }
      </div>
    </section>
  `,
  styleUrl: './chart-card.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ChartCard {
  private readonly palette = inject(ChartPalette);
  /** The card's title (translated); also the start of the chart's spoken description. */
  readonly heading = input.required<string>();
  readonly spec = input.required<ChartSpec>();
  /** What to say when there are no items (translated); default "No data for this period". */
  readonly empty = input('');

  private readonly id = nextId++;
  protected readonly headingId = `chart-card-${this.id}`;
  protected readonly bodyId = `chart-card-${this.id}-body`;
  /** The drawing width in px (0 until measured): decides how axis labels are laid out. */
  protected readonly width = signal(0);
  protected readonly asTable = signal(false);
  protected readonly format = computed(() => this.spec().format ?? plainNumber);
  protected readonly description = computed(() => chartDescription(this.heading(), this.spec()));
  protected readonly height = computed(() => chartHeight(this.spec()));
  protected readonly options = computed(() =>
    chartOptions(this.spec(), this.palette.colors(), {
      description: this.description(),
      animation: !this.palette.reducedMotion(),
      width: this.width(),
    }),
  );

  constructor() {
    const host = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
    const destroyRef = inject(DestroyRef);
    afterNextRender(() => {
      // The card's padding and border (2 × 17 px) are not drawn on; steps of 8 px keep a
      // window being dragged wider from redrawing the chart on every pixel.
      const measure = () =>
        this.width.set(Math.max(0, Math.floor((host.clientWidth - 34) / 8) * 8));
      measure();
      if (typeof ResizeObserver === 'undefined') return;
      const observer = new ResizeObserver(measure);
      observer.observe(host);
      destroyRef.onDestroy(() => observer.disconnect());
    });
  }
}
