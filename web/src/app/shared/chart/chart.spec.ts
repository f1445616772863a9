import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { flushAndRender, stubResizeObserver } from '../../../testing/dom';
import { HEAT_LEVELS, heatLevels } from './heatmap';
import { provideTestApp } from '../../../testing/providers';
import { ThemeSwitch } from '../../core/theme/theme';
import { ChartCard } from './chart-card';
import {
  type ChartOptions,
  type ChartSpec,
  chartDescription,
  chartHeight,
  categoryLabels,
  chartOptions,
  textWidth,
  valueSteps,
} from './chart-options';
import {
  CATEGORICAL,
  type ChartColors,
  ChartPalette,
  TONES,
  luminanceOf,
  resolveColors,
} from './chart-palette';
import { ECHARTS_LOADER } from './echarts-loader';

const COLORS: ChartColors = {
  series: ['#111111', '#222222', '#333333'],
  tones: TONES.light,
  text: '#000000',
  mutedText: '#444444',
  gridLine: '#cccccc',
  axisLine: '#888888',
  surface: '#ffffff',
  fontFamily: 'Roboto',
  fontSize: 12,
};

const hours: ChartSpec = {
  type: 'bar',
  items: [
    { label: '00', value: 1 },
    { label: '01', value: 3 },
  ],
  categoryHeader: 'Hour',
  valueHeader: 'Minutes',
  format: (value) => `${value} min`,
};

type Axis = {
  type: string;
  data?: string[];
  inverse?: boolean;
  axisLabel: {
    formatter?: unknown;
    interval?: number;
    rotate?: number;
    width?: number;
    overflow?: string;
    ellipsis?: string;
    fontFamily?: string;
    fontSize?: number;
  };
};

const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
const WEEKDAYS_ZH = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'];
const APPS_ZH = ['安卓电视客户端', 'Jellyfin 网页版', 'Infuse 专业版', '苹果电视 Swiftfin'];

describe('chart options (60-web.md §6.5)', () => {
  it('should draw vertical bars in the given order with the value format on the axis', () => {
    const options = chartOptions(hours, COLORS, { description: 'd' });
    const x = options.xAxis as Axis;
    const y = options.yAxis as Axis;
    expect(x).toMatchObject({ type: 'category', data: ['00', '01'], inverse: false });
    expect((y.axisLabel.formatter as (v: number) => string)(3)).toBe('3 min');
    expect(options.series).toEqual([
      expect.objectContaining({ type: 'bar', data: [1, 3], name: 'Minutes' }),
    ]);
    expect(options.aria).toEqual({ enabled: true, label: { description: 'd' } });
    expect(options['backgroundColor']).toBe('transparent');
    expect(options['color']).toEqual(COLORS.series);
  });

  it('should put a ranking on the vertical axis, first item on top, taller with more rows', () => {
    const ranking: ChartSpec = { ...hours, type: 'bar-horizontal' };
    const options = chartOptions(ranking, COLORS, { description: 'd' });
    expect(options.yAxis as Axis).toMatchObject({ type: 'category', inverse: true });
    expect((options.xAxis as Axis).type).toBe('value');
    const ten = {
      ...ranking,
      items: Array.from({ length: 10 }, (_, i) => ({ label: `${i}`, value: i })),
    };
    expect(chartHeight(ten)).toBeGreaterThan(chartHeight(ranking));
    expect(chartHeight(hours)).toBe(240);
  });

  it('should draw a donut of named slices with the tooltip in the value format', () => {
    const donut: ChartSpec = {
      type: 'donut',
      items: [
        { label: 'Direct play', value: 7 },
        { label: 'Transcode', value: 2 },
      ],
      categoryHeader: 'Method',
      valueHeader: 'Plays',
      format: (value) => `${value} plays`,
    };
    const options = chartOptions(donut, COLORS, { description: 'd', animation: false });
    const [series] = options.series as [{ type: string; data: unknown }];
    expect(series.type).toBe('pie');
    expect(series.data).toEqual([
      { name: 'Direct play', value: 7 },
      { name: 'Transcode', value: 2 },
    ]);
    expect(options.xAxis).toBeUndefined();
    expect(options['animation']).toBe(false);
    const tooltip = options.tooltip as { valueFormatter: (v: unknown) => string };
    expect(tooltip.valueFormatter(2)).toBe('2 plays');
  });

  it('should paint an item with a tone in that tone, in a donut and in bars', () => {
    const tiers: ChartSpec = {
      type: 'donut',
      items: [
        { label: '4K', value: 3, tone: 'best' },
        { label: 'SD', value: 1, tone: 'poor' },
        { label: 'Other', value: 1 },
      ],
      categoryHeader: 'Resolution',
      valueHeader: 'Videos',
    };
    const [pie] = chartOptions(tiers, COLORS, { description: 'd' }).series as [{ data: unknown }];
    expect(pie.data).toEqual([
      { name: '4K', value: 3, itemStyle: { color: TONES.light.best } },
      { name: 'SD', value: 1, itemStyle: { color: TONES.light.poor } },
      { name: 'Other', value: 1 },
    ]);
    const [bars] = chartOptions({ ...tiers, type: 'bar' }, COLORS, { description: 'd' }).series as [
      { data: unknown },
    ];
    expect(bars.data).toEqual([
      { value: 3, itemStyle: { color: TONES.light.best } },
      { value: 1, itemStyle: { color: TONES.light.poor } },
      1,
    ]);
  });

  it('should never let category labels overlap, on a phone or a desktop, in either language', () => {
    // A phone card draws on about 358 − 34 px; a desktop half-width card on about 470.
    const phone = 320;
    // Every label when they fit side by side.
    expect(categoryLabels(WEEKDAYS_ZH, 470, 12, false)).toMatchObject({ interval: 0, rotate: 0 });
    expect(categoryLabels(HOURS, 1100, 12, false)).toMatchObject({ interval: 0, rotate: 0 });
    // 24 hours on a phone: every few hours, upright, and the shown ones do not touch.
    const hoursPhone = categoryLabels(HOURS, phone, 12, false);
    expect(hoursPhone.rotate).toBe(0);
    expect(hoursPhone.interval).toBeGreaterThan(0);
    const slot = (phone - 56) / 24;
    expect((hoursPhone.interval + 1) * slot).toBeGreaterThanOrEqual(textWidth('00', 12) + 8);
    // Long Chinese names on a phone turn 45° and are cut with an ellipsis.
    const apps = categoryLabels(APPS_ZH, phone / 2, 12, false);
    expect(apps.rotate).toBe(45);
    expect(apps.width).toBeLessThanOrEqual(96);
    // A ranking keeps one label per row, cut to a share of the width.
    const ranking = categoryLabels(APPS_ZH, phone, 12, true);
    expect(ranking).toMatchObject({ interval: 0, rotate: 0 });
    expect(ranking.width).toBeLessThanOrEqual(phone * 0.35);
    // Short Chinese weekdays stay upright; a label that fits is never cut.
    expect(categoryLabels(WEEKDAYS_ZH, phone, 12, false)).toMatchObject({ interval: 0, rotate: 0 });
    expect(categoryLabels(['杜比视界'], 272, 12, true).width).toBeGreaterThan(
      textWidth('杜比视界', 12),
    );
    expect(textWidth('周一', 12)).toBe(24);
    expect(textWidth('Mon', 10)).toBe(18);
  });

  it('should space the value labels along the bottom of a ranking on a phone', () => {
    const hoursZh = (value: number) => `${value}小时`;
    // Two apps of about 3 h on a phone: "0小时 … 3小时" in 6 steps would collide.
    const steps = valueSteps([3, 2.5], hoursZh, 320 - 56 - 60, 12);
    expect(steps).toBeLessThan(5);
    expect(steps).toBeGreaterThanOrEqual(1);
    expect(valueSteps([3, 2.5], hoursZh, 900, 12)).toBe(5);
    const apps: ChartSpec = {
      ...hours,
      type: 'bar-horizontal',
      format: hoursZh,
      items: [
        { label: 'Infuse', value: 3 },
        { label: 'Emby Web', value: 2.5 },
      ],
    };
    const x = chartOptions(apps, COLORS, { description: 'd', width: 320 }).xAxis as Axis & {
      splitNumber: number;
      axisLabel: { hideOverlap: boolean };
    };
    expect(x.splitNumber).toBeLessThan(5);
    expect(x.axisLabel.hideOverlap).toBe(true);
  });

  it('should cut long labels with an ellipsis in the app font, the full text kept for the tooltip', () => {
    const apps: ChartSpec = {
      ...hours,
      type: 'bar-horizontal',
      items: APPS_ZH.map((label, i) => ({ label, value: i + 1 })),
    };
    const options = chartOptions(apps, COLORS, { description: 'd', width: 320 });
    const y = options.yAxis as Axis;
    expect(y.data).toEqual(APPS_ZH);
    expect(y.axisLabel).toMatchObject({
      overflow: 'truncate',
      ellipsis: '…',
      fontFamily: 'Roboto',
      fontSize: 12,
      interval: 0,
    });
    expect((options.xAxis as Axis).axisLabel.fontFamily).toBe('Roboto');
    expect(options.grid).toMatchObject({ outerBoundsContain: 'axisLabel' });

    const donut = chartOptions({ ...apps, type: 'donut' }, COLORS, {
      description: 'd',
      width: 320,
    });
    const legend = donut.legend as {
      tooltip: { show: boolean };
      textStyle: Record<string, unknown>;
    };
    expect(legend.tooltip.show).toBe(true);
    expect(legend.textStyle).toMatchObject({ overflow: 'truncate', fontFamily: 'Roboto' });
  });

  it('should describe the chart for screen readers with every formatted value', () => {
    expect(chartDescription('By hour', hours)).toBe('By hour. 00: 1 min; 01: 3 min.');
    expect(chartDescription('By hour', { ...hours, items: [] })).toBe('By hour.');
  });
});

describe('ChartPalette', () => {
  afterEach(() => jest.restoreAllMocks());

  it('should fall back to the light colours when the tokens cannot be resolved', () => {
    const colors = resolveColors(document);
    expect(colors.series).toEqual(CATEGORICAL.light);
    expect(colors.text).toBe('#1a1b20');
    expect(colors.fontSize).toBe(12);
    expect(document.querySelectorAll('span').length).toBe(0);
  });

  it("should take the scheme's palette again when the theme changes", () => {
    // A stand-in for the browser: the probe's colour depends on the scheme set on <html>.
    const real = window.getComputedStyle.bind(window);
    jest.spyOn(window, 'getComputedStyle').mockImplementation((element) => {
      const style = real(element);
      if (element instanceof HTMLSpanElement) {
        const dark = document.documentElement.dataset['theme'] === 'dark';
        return { ...style, color: dark ? 'rgb(41, 42, 47)' : 'rgb(233, 231, 239)' };
      }
      return style;
    });
    TestBed.configureTestingModule({});
    const palette = TestBed.inject(ChartPalette);
    const theme = TestBed.inject(ThemeSwitch);
    theme.use('light');
    expect(palette.colors().series).toEqual(CATEGORICAL.light);
    expect(palette.colors().tones).toEqual(TONES.light);
    theme.use('dark');
    expect(palette.colors().series).toEqual(CATEGORICAL.dark);
    expect(palette.colors().tones).toEqual(TONES.dark);
    expect(palette.colors().text).toBe('rgb(41, 42, 47)');
  });

  // Issue 36: in dark mode 4K and SD were drawn in one colour.
  describe.each([
    ['light', '#e9e7ef'],
    ['dark', '#292a2f'],
  ] as const)('in the %s scheme', (scheme, surface) => {
    const lab = (hex: string): [number, number, number] => {
      const [r, g, b] = [0, 2, 4].map((i) => {
        const c = parseInt(hex.slice(1 + i, 3 + i), 16) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
      const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
      const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
      const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
      return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
    };
    const deltaE = (a: string, b: string) => {
      const [p, q] = [lab(a), lab(b)];
      return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    };
    const contrast = (a: string, b: string) => {
      const [hi, lo] = [luminanceOf(a)!, luminanceOf(b)!].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    const closest = (colors: readonly string[]) =>
      Math.min(...colors.flatMap((a, i) => colors.slice(i + 1).map((b) => deltaE(a, b))));

    it('should keep every categorical colour and every tone apart, and visible', () => {
      const tones = Object.values(TONES[scheme]);
      expect(closest(CATEGORICAL[scheme])).toBeGreaterThanOrEqual(20);
      expect(closest(tones)).toBeGreaterThanOrEqual(20);
      for (const color of [...CATEGORICAL[scheme], ...tones]) {
        expect(contrast(color, surface)).toBeGreaterThanOrEqual(3);
      }
    });
  });
});

@Component({
  imports: [ChartCard],
  template: `<app-chart-card heading="Watch time by hour" [spec]="spec()" />`,
})
class Host {
  readonly spec = signal<ChartSpec>(hours);
}

describe('ChartCard', () => {
  const setOption = jest.fn();
  const init = jest.fn();

  beforeAll(() => {
    stubResizeObserver();
  });

  async function render() {
    setOption.mockReset();
    init.mockReset().mockImplementation(() => ({
      setOption,
      isDisposed: () => false,
      dispose: () => undefined,
      resize: () => undefined,
      on: () => undefined,
      off: () => undefined,
    }));
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        // ECharts itself is never loaded in jsdom: the card gets a stand-in with `init`.
        { provide: ECHARTS_LOADER, useValue: () => Promise.resolve({ init }) },
      ],
    });
    const fixture = TestBed.createComponent(Host);
    await fixture.whenStable();
    await flushAndRender(fixture);
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  it('should draw the chart through the lazy loader with the spoken description', async () => {
    const { root } = await render();
    expect(root.querySelector('h2')!.textContent).toContain('Watch time by hour');
    const chart = root.querySelector('[data-testid="chart"]')!;
    expect(chart.getAttribute('role')).toBe('img');
    expect(chart.getAttribute('aria-label')).toBe('Watch time by hour. 00: 1 min; 01: 3 min.');
    expect(init).toHaveBeenCalledTimes(1);
    expect(init.mock.calls[0][0]).toBe(chart);
    const options = setOption.mock.calls.at(-1)![0] as ChartOptions;
    expect((options.xAxis as Axis).data).toEqual(['00', '01']);
  });

  it('should show the values as a table when asked, and say when there is nothing', async () => {
    const { fixture, root } = await render();
    const toggle = root.querySelector<HTMLButtonElement>('[data-testid="chart-toggle"]')!;
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    toggle.click();
    await fixture.whenStable();
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(root.querySelector('[data-testid="chart"]')).toBeNull();
    const rows = [...root.querySelectorAll('[data-testid="chart-table"] tbody tr')].map((row) =>
      [...row.children].map((cell) => cell.textContent!.trim()),
    );
    expect(rows).toEqual([
      ['00', '1 min'],
      ['01', '3 min'],
    ]);
    // The table is reachable by keyboard, named by the heading, and controlled by the toggle.
    const region = root.querySelector<HTMLElement>('[data-testid="chart-table-region"]')!;
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.getAttribute('role')).toBe('region');
    const headingId = root.querySelector('h2')!.id;
    expect(region.getAttribute('aria-labelledby')).toBe(headingId);
    const body = root.querySelector(`#${toggle.getAttribute('aria-controls')}`)!;
    expect(body.contains(region)).toBe(true);
    const headers = [...root.querySelectorAll('thead th')].map((th) => th.textContent!.trim());
    expect(headers).toEqual(['Hour', 'Minutes']);

    fixture.componentInstance.spec.set({ ...hours, items: [] });
    await fixture.whenStable();
    expect(root.querySelector('[data-testid="chart-empty"]')!.textContent).toContain(
      'No data for this period',
    );
    expect(root.querySelector('[data-testid="chart-toggle"]')).toBeNull();
  });

  it('should lay the labels out for the width the card is drawn at', async () => {
    // jsdom has no layout: the card reads a phone's width (390 − 2 × 16 page padding).
    jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(358);
    const { fixture } = await render();
    fixture.componentInstance.spec.set({
      ...hours,
      items: HOURS.map((label, value) => ({ label, value })),
    });
    await flushAndRender(fixture);
    const x = (setOption.mock.calls.at(-1)![0] as ChartOptions).xAxis as Axis;
    expect(x.data).toEqual(HOURS);
    expect(x.axisLabel).toMatchObject(categoryLabels(HOURS, 320, 12, false));
    expect(x.axisLabel.interval).toBeGreaterThan(0);
    jest.restoreAllMocks();
  });

  it('should redraw in the new colours when the theme changes', async () => {
    const real = window.getComputedStyle.bind(window);
    jest.spyOn(window, 'getComputedStyle').mockImplementation((element) => {
      const style = real(element);
      if (element instanceof HTMLSpanElement) {
        const dark = document.documentElement.dataset['theme'] === 'dark';
        return { ...style, color: dark ? 'rgb(30, 30, 35)' : 'rgb(240, 240, 245)' };
      }
      return style;
    });
    const { fixture } = await render();
    TestBed.inject(ThemeSwitch).use('dark');
    await flushAndRender(fixture);
    const options = setOption.mock.calls.at(-1)![0] as ChartOptions;
    expect(options['color']).toEqual(CATEGORICAL.dark);
    jest.restoreAllMocks();
  });
});

describe('heatLevels', () => {
  it('should shade each cell by its share of the largest, any play at least the first shade', () => {
    expect(heatLevels([[0, 1, 2, 100]])).toEqual([[0, 1, 1, HEAT_LEVELS]]);
    expect(heatLevels([[0, 25, 50, 75]])).toEqual([[0, 2, 3, 4]]);
    // Nothing at all: every cell empty, not a division by zero.
    expect(
      heatLevels([
        [0, 0],
        [0, 0],
      ]),
    ).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
});
