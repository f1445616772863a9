import type { BarSeriesOption, PieSeriesOption } from 'echarts/charts';
import type {
  AriaComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { ChartColors } from './chart-palette';

/** One category and its value: an hour and its plays, a client and its watch time. */
export interface ChartItem {
  /** Already translated or formatted by the page. */
  readonly label: string;
  readonly value: number;
}

/**
 * What a page hands to `app-chart-card`: data, not ECharts options.
 * - `bar`: vertical bars, one per item, in the given order (hours 0–23, weekdays).
 * - `bar-horizontal`: a ranking, the first item on top (clients, codecs).
 * - `donut`: shares of a whole (play methods, resolutions).
 */
export interface ChartSpec {
  readonly type: 'bar' | 'bar-horizontal' | 'donut';
  readonly items: readonly ChartItem[];
  /** Column headers of the table alternative, e.g. "Hour" / "Plays" (translated). */
  readonly categoryHeader: string;
  readonly valueHeader: string;
  /** Formats a value for the tooltip, the axis and the table; default: a plain number. */
  readonly format?: (value: number) => string;
}

export type ChartOptions = ComposeOption<
  | BarSeriesOption
  | PieSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | AriaComponentOption
>;

export const plainNumber = (value: number): string => String(value);

/** The text a screen reader hears for the chart: its title, then each item with its value. */
export function chartDescription(heading: string, spec: ChartSpec): string {
  const format = spec.format ?? plainNumber;
  const items = spec.items.map((item) => `${item.label}: ${format(item.value)}`);
  return items.length ? `${heading}. ${items.join('; ')}.` : `${heading}.`;
}

/** Height in px: fixed for vertical bars and donuts, by the number of rows for a ranking. */
export function chartHeight(spec: ChartSpec): number {
  if (spec.type !== 'bar-horizontal') return 240;
  return Math.max(160, 36 * spec.items.length + 40);
}

/** The ECharts option for a spec in the theme's colours (60-web.md §6.5: a pure builder). */
export function chartOptions(
  spec: ChartSpec,
  colors: ChartColors,
  options: { description: string; animation?: boolean },
): ChartOptions {
  const format = spec.format ?? plainNumber;
  const base: ChartOptions = {
    backgroundColor: 'transparent',
    color: [...colors.series],
    animation: options.animation ?? true,
    textStyle: { color: colors.text, fontFamily: colors.fontFamily },
    aria: { enabled: true, label: { description: options.description } },
    tooltip: {
      trigger: spec.type === 'donut' ? 'item' : 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value) => (typeof value === 'number' ? format(value) : String(value ?? '')),
      backgroundColor: colors.surface,
      borderColor: colors.gridLine,
      textStyle: { color: colors.text, fontFamily: colors.fontFamily },
      confine: true,
    },
  };
  if (spec.type === 'donut') {
    return {
      ...base,
      legend: {
        type: 'scroll',
        bottom: 0,
        textStyle: { color: colors.mutedText },
        pageTextStyle: { color: colors.mutedText },
      },
      series: [
        {
          type: 'pie',
          name: spec.valueHeader,
          radius: ['48%', '72%'],
          center: ['50%', '44%'],
          avoidLabelOverlap: true,
          label: { show: false },
          itemStyle: { borderColor: colors.surface, borderWidth: 2 },
          data: spec.items.map((item) => ({ name: item.label, value: item.value })),
        },
      ],
    };
  }
  const horizontal = spec.type === 'bar-horizontal';
  const categoryAxis = {
    type: 'category' as const,
    data: spec.items.map((item) => item.label),
    inverse: horizontal,
    axisTick: { show: false },
    axisLine: { lineStyle: { color: colors.axisLine } },
    axisLabel: { color: colors.mutedText, hideOverlap: true },
  };
  const valueAxis = {
    type: 'value' as const,
    // Counts step by whole numbers; hours (1.5 h) may not.
    minInterval: spec.items.every((item) => Number.isInteger(item.value)) ? 1 : undefined,
    axisLabel: { color: colors.mutedText, formatter: (value: number) => format(value) },
    splitLine: { lineStyle: { color: colors.gridLine } },
  };
  return {
    ...base,
    grid: {
      left: 8,
      right: 16,
      top: 16,
      bottom: 8,
      outerBoundsMode: 'same',
      outerBoundsContain: 'axisLabel',
    },
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? categoryAxis : valueAxis,
    series: [
      {
        type: 'bar',
        name: spec.valueHeader,
        data: spec.items.map((item) => item.value),
        barMaxWidth: 32,
        itemStyle: {
          color: colors.series[0],
          borderRadius: horizontal ? [0, 4, 4, 0] : [4, 4, 0, 0],
        },
      },
    ],
  };
}
