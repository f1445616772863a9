import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { TranslocoDirective } from '@jsverse/transloco';

/** How many shades a cell can take above "none": the legend shows each. */
export const HEAT_LEVELS = 4;

/**
 * The shade of each cell: 0 for none, else 1–`HEAT_LEVELS` by its share of the largest value
 * (any value above zero is at least level 1, so a single play is never drawn as nothing).
 */
export function heatLevels(grid: readonly (readonly number[])[]): number[][] {
  const max = Math.max(0, ...grid.flat());
  return grid.map((row) =>
    row.map((value) => (value <= 0 || max === 0 ? 0 : Math.ceil((value / max) * HEAT_LEVELS))),
  );
}

let nextId = 0;

/**
 * A weekday × hour heatmap (issue 36, the chart system's third shape next to bars and donuts):
 * one row a day, one column an hour, each cell shaded by its value in the palette's first hue.
 * It is a real table — weekday row headers, hour column headers, the value in every cell for a
 * screen reader and a tooltip — so no "show as table" toggle is needed; only every third hour
 * is printed above the columns, the others are there for assistive technology.
 */
@Component({
  selector: 'app-heatmap',
  imports: [TranslocoDirective],
  template: `
    <section class="heatmap" [attr.aria-labelledby]="headingId" *transloco="let t">
      <h2 [id]="headingId">{{ heading() }}</h2>
      <div class="scroll">
        <table data-testid="heatmap">
          <caption class="visually-hidden">
            {{
              heading()
            }}
          </caption>
          <thead>
            <tr>
              <td></td>
              @for (label of columns(); track $index) {
                <th scope="col" [class.quiet]="$index % 3 !== 0">
                  <span>{{ label }}</span>
                </th>
              }
            </tr>
          </thead>
          <tbody>
            @for (row of rows(); track $index; let r = $index) {
              <tr>
                <th scope="row">{{ row }}</th>
                @for (value of values()[r]; track $index; let c = $index) {
                  <td
                    [class]="'level-' + levels()[r]![c]"
                    [attr.title]="row + ' ' + columns()[c] + ' · ' + format()(value)"
                  >
                    <span class="visually-hidden">{{ format()(value) }}</span>
                  </td>
                }
              </tr>
            }
          </tbody>
        </table>
      </div>
      <p class="legend" aria-hidden="true">
        {{ t('chart.less') }}
        @for (level of legend; track level) {
          <span [class]="'swatch level-' + level"></span>
        }
        {{ t('chart.more') }}
      </p>
    </section>
  `,
  styles: `
    :host {
      display: block;
      min-width: 0;
    }
    .heatmap {
      box-sizing: border-box;
      height: 100%;
      padding: 16px;
      border-radius: 16px;
      background: var(--mat-sys-surface-container-low);
      border: 1px solid var(--mat-sys-outline-variant);
      // The categorical palette's first hue (chart-palette.ts CATEGORICAL), in both schemes.
      --heat: light-dark(#1f66c2, #8ab4ff);
    }
    h2 {
      margin: 0 0 12px;
      font: var(--mat-sys-title-medium);
    }
    .scroll {
      overflow-x: auto;
    }
    table {
      width: 100%;
      min-width: 280px;
      border-collapse: separate;
      border-spacing: 2px;
      table-layout: fixed;
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-on-surface-variant);
    }
    thead td {
      width: 2.75em;
    }
    thead th {
      font-weight: 400;
      text-align: start;
      white-space: nowrap;
      overflow: visible;
    }
    thead th.quiet span {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
    }
    tbody th {
      padding-inline-end: 4px;
      font-weight: 400;
      text-align: start;
      white-space: nowrap;
    }
    // A shade's rule must outweigh this one: both carry the component's attribute.
    tbody td,
    .swatch {
      height: 18px;
      border-radius: 3px;
      background: var(--mat-sys-surface-container-highest);
    }
    tbody td.level-1,
    .swatch.level-1 {
      background: color-mix(in srgb, var(--heat) 30%, var(--mat-sys-surface-container-highest));
    }
    tbody td.level-2,
    .swatch.level-2 {
      background: color-mix(in srgb, var(--heat) 55%, var(--mat-sys-surface-container-highest));
    }
    tbody td.level-3,
    .swatch.level-3 {
      background: color-mix(in srgb, var(--heat) 78%, var(--mat-sys-surface-container-highest));
    }
    tbody td.level-4,
    .swatch.level-4 {
      background: var(--heat);
    }
    .legend {
      display: flex;
      align-items: center;
      justify-content: flex-end;
      gap: 4px;
      margin: 8px 0 0;
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-on-surface-variant);
    }
    .swatch {
      display: inline-block;
      width: 14px;
      height: 14px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class Heatmap {
  /** The card's title (translated). */
  readonly heading = input.required<string>();
  /** Row labels (weekdays, Monday first) and column labels (hours "00"–"23"). */
  readonly rows = input.required<readonly string[]>();
  readonly columns = input.required<readonly string[]>();
  /** One array per row, one value per column. */
  readonly values = input.required<readonly (readonly number[])[]>();
  /** A value for the tooltip and screen readers ("3 plays"). */
  readonly format = input<(value: number) => string>(String);

  protected readonly headingId = `heatmap-${nextId++}`;
  protected readonly levels = computed(() => heatLevels(this.values()));
  protected readonly legend = Array.from({ length: HEAT_LEVELS + 1 }, (_, i) => i);
}
