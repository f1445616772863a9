import type { BarSeriesOption, PieSeriesOption } from 'echarts/charts';
import type {
  AriaComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { ChartColors, ChartTone } from './chart-palette';

/** One category and its value: an hour and its plays, a client and its watch time. */
export interface ChartItem {
  /** Already translated or formatted by the page. */
  readonly label: string;
  readonly value: number;
  /** A meaning its colour carries (a quality tier), the same in every chart and scheme. */
  readonly tone?: ChartTone;
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

/** Roughly how wide a label is drawn: CJK and full-width characters take a whole em. */
export function textWidth(text: string, fontSize: number): number {
  let width = 0;
  for (const char of text) width += char.codePointAt(0)! >= 0x2e80 ? fontSize : fontSize * 0.6;
  return width;
}

/** The longest a category label may be drawn before it ends in an ellipsis. */
const MAX_LABEL_WIDTH = 96;

/** How a category axis writes its labels so they never overlap (60-web.md §6.5). */
export interface CategoryLabels {
  /** 0: every label; n: every (n+1)th label. */
  readonly interval: number;
  readonly rotate: number;
  /** Truncation width in px; the tooltip and the table keep the full text. */
  readonly width: number;
}

/**
 * The label layout for `labels` on a chart `width` px wide (0: not measured yet).
 * - a ranking (labels on the vertical axis): one label per row, cut at a share of the width;
 * - vertical bars: every label when they fit side by side; short ones (hours, weekdays) skip
 *   some when they do not; long ones (names) turn 45° and are cut.
 */
export function categoryLabels(
  labels: readonly string[],
  width: number,
  fontSize: number,
  horizontal: boolean,
): CategoryLabels {
  // The estimate plus some slack: a label that fits is never cut for a pixel of rounding.
  const longest =
    Math.ceil(Math.max(0, ...labels.map((label) => textWidth(label, fontSize))) * 1.1) + 4;
  if (horizontal) {
    const cap = width > 0 ? Math.min(MAX_LABEL_WIDTH * 1.5, Math.floor(width * 0.35)) : 120;
    return { interval: 0, rotate: 0, width: Math.max(48, Math.min(cap, longest)) };
  }
  if (width <= 0 || labels.length === 0) {
    return { interval: 0, rotate: 0, width: MAX_LABEL_WIDTH };
  }
  // The plot is the chart less the value axis labels and the grid's margins.
  const slot = Math.max(1, width - 56) / labels.length;
  const gap = 4;
  if (longest + gap <= slot) {
    return { interval: 0, rotate: 0, width: Math.max(longest, Math.floor(slot - 2)) };
  }
  if (longest <= 3 * fontSize) {
    return {
      interval: Math.ceil((longest + gap) / slot) - 1,
      rotate: 0,
      width: Math.ceil(longest),
    };
  }
  // Turned labels stand one line-height apart along the axis (× √2 at 45°).
  const step = fontSize * 1.2 * Math.SQRT2;
  return {
    interval: Math.max(0, Math.ceil(step / slot) - 1),
    rotate: 45,
    width: Math.min(MAX_LABEL_WIDTH, longest),
  };
}

/**
 * How many steps a ranking's value axis (along the bottom) may take so its labels ("1.5 h",
 * "1.5小时") stay apart: as many as fit in the plot `width`, at most 5 (0 width: 5).
 */
export function valueSteps(
  values: readonly number[],
  format: (value: number) => string,
  width: number,
  fontSize: number,
): number {
  if (width <= 0) return 5;
  const max = Math.max(0, ...values);
  const widest = Math.max(...[max, max / 2].map((value) => textWidth(format(value), fontSize)));
  return Math.max(1, Math.min(5, Math.floor(width / (widest * 1.1 + 12))));
}

/** The ECharts option for a spec in the theme's colours (60-web.md §6.5: a pure builder). */
export function chartOptions(
  spec: ChartSpec,
  colors: ChartColors,
  options: { description: string; animation?: boolean; width?: number },
): ChartOptions {
  const format = spec.format ?? plainNumber;
  const font = { fontFamily: colors.fontFamily, fontSize: colors.fontSize };
  const base: ChartOptions = {
    backgroundColor: 'transparent',
    color: [...colors.series],
    animation: options.animation ?? true,
    textStyle: { color: colors.text, ...font },
    aria: { enabled: true, label: { description: options.description } },
    tooltip: {
      trigger: spec.type === 'donut' ? 'item' : 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value) => (typeof value === 'number' ? format(value) : String(value ?? '')),
      backgroundColor: colors.surface,
      borderColor: colors.gridLine,
      textStyle: { color: colors.text, ...font },
      confine: true,
    },
  };
  if (spec.type === 'donut') {
    const legendWidth = options.width ? Math.max(64, Math.floor(options.width / 2)) : 160;
    return {
      ...base,
      legend: {
        type: 'scroll',
        bottom: 0,
        // Long names end in an ellipsis; hovering one shows it whole, the table lists it whole.
        tooltip: { show: true },
        textStyle: {
          color: colors.mutedText,
          ...font,
          width: legendWidth,
          overflow: 'truncate',
          ellipsis: '…',
        },
        pageTextStyle: { color: colors.mutedText, ...font },
        pageIconColor: colors.text,
        pageIconInactiveColor: colors.gridLine,
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
          data: spec.items.map((item) => ({
            name: item.label,
            value: item.value,
            ...(item.tone ? { itemStyle: { color: colors.tones[item.tone] } } : {}),
          })),
        },
      ],
    };
  }
  const horizontal = spec.type === 'bar-horizontal';
  const labels = spec.items.map((item) => item.label);
  const layout = categoryLabels(labels, options.width ?? 0, colors.fontSize, horizontal);
  const categoryAxis = {
    type: 'category' as const,
    // The full labels: the axis tooltip shows them whole even where the axis cuts them.
    data: labels,
    inverse: horizontal,
    axisTick: { show: false },
    axisLine: { lineStyle: { color: colors.axisLine } },
    axisLabel: {
      color: colors.mutedText,
      ...font,
      interval: layout.interval,
      rotate: layout.rotate,
      width: layout.width,
      overflow: 'truncate' as const,
      ellipsis: '…',
      hideOverlap: true,
    },
  };
  const values = spec.items.map((item) => item.value);
  const valueAxis = {
    type: 'value' as const,
    // Counts step by whole numbers; hours (1.5 h) may not.
    minInterval: values.every((value) => Number.isInteger(value)) ? 1 : undefined,
    // Along the bottom of a ranking, the labels share the width left beside the names.
    splitNumber: horizontal
      ? valueSteps(
          values,
          format,
          options.width ? options.width - 56 - layout.width : 0,
          colors.fontSize,
        )
      : undefined,
    axisLabel: {
      color: colors.mutedText,
      ...font,
      hideOverlap: true,
      formatter: (value: number) => format(value),
    },
    splitLine: { lineStyle: { color: colors.gridLine } },
  };
  return {
    ...base,
    // ECharts 6's `containLabel`: the grid shrinks so the axis labels stay inside the chart.
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
        data: spec.items.map((item) =>
          item.tone
            ? { value: item.value, itemStyle: { color: colors.tones[item.tone] } }
            : item.value,
        ),
        barMaxWidth: 32,
        itemStyle: {
          color: colors.series[0],
          borderRadius: horizontal ? [0, 4, 4, 0] : [4, 4, 0, 0],
        },
      },
    ],
  };
}
