import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { ThemeSwitch } from '../../core/theme/theme';
import { ChartCard } from './chart-card';
import {
  type ChartOptions,
  type ChartSpec,
  chartDescription,
  chartHeight,
  chartOptions,
} from './chart-options';
import { type ChartColors, ChartPalette, resolveColors } from './chart-palette';
import { ECHARTS_LOADER } from './echarts-loader';

const COLORS: ChartColors = {
  series: ['#111111', '#222222', '#333333'],
  text: '#000000',
  mutedText: '#444444',
  gridLine: '#cccccc',
  axisLine: '#888888',
  surface: '#ffffff',
  fontFamily: 'Roboto',
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
  axisLabel: { formatter?: unknown };
};

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

  it('should describe the chart for screen readers with every formatted value', () => {
    expect(chartDescription('By hour', hours)).toBe('By hour. 00: 1 min; 01: 3 min.');
    expect(chartDescription('By hour', { ...hours, items: [] })).toBe('By hour.');
  });
});

describe('ChartPalette', () => {
  afterEach(() => jest.restoreAllMocks());

  it('should fall back to the light colours when the tokens cannot be resolved', () => {
    const colors = resolveColors(document);
    expect(colors.series[0]).toBe('#005cbb');
    expect(colors.text).toBe('#1a1b20');
    expect(document.querySelectorAll('span').length).toBe(0);
  });

  it('should resolve the tokens again when the theme changes', () => {
    // A stand-in for the browser: the probe's colour depends on the scheme set on <html>.
    const real = window.getComputedStyle.bind(window);
    jest.spyOn(window, 'getComputedStyle').mockImplementation((element) => {
      const style = real(element);
      if (element instanceof HTMLSpanElement) {
        const dark = document.documentElement.dataset['theme'] === 'dark';
        return { ...style, color: dark ? 'rgb(200, 200, 255)' : 'rgb(0, 0, 100)' };
      }
      return style;
    });
    TestBed.configureTestingModule({});
    const palette = TestBed.inject(ChartPalette);
    const theme = TestBed.inject(ThemeSwitch);
    theme.use('light');
    expect(palette.colors().series[0]).toBe('rgb(0, 0, 100)');
    theme.use('dark');
    expect(palette.colors().series[0]).toBe('rgb(200, 200, 255)');
    expect(palette.colors().text).toBe('rgb(200, 200, 255)');
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
    Object.defineProperty(window, 'ResizeObserver', {
      configurable: true,
      value: class {
        observe(): void {}
        unobserve(): void {}
        disconnect(): void {}
      },
    });
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
    const headers = [...root.querySelectorAll('thead th')].map((th) => th.textContent!.trim());
    expect(headers).toEqual(['Hour', 'Minutes']);

    fixture.componentInstance.spec.set({ ...hours, items: [] });
    await fixture.whenStable();
    expect(root.querySelector('[data-testid="chart-empty"]')!.textContent).toContain(
      'No data for this period',
    );
    expect(root.querySelector('[data-testid="chart-toggle"]')).toBeNull();
  });

  it('should redraw in the new colours when the theme changes', async () => {
    const real = window.getComputedStyle.bind(window);
    jest.spyOn(window, 'getComputedStyle').mockImplementation((element) => {
      const style = real(element);
      if (element instanceof HTMLSpanElement) {
        const dark = document.documentElement.dataset['theme'] === 'dark';
        return { ...style, color: dark ? 'rgb(1, 1, 1)' : 'rgb(2, 2, 2)' };
      }
      return style;
    });
    const { fixture } = await render();
    TestBed.inject(ThemeSwitch).use('dark');
    await flushAndRender(fixture);
    const options = setOption.mock.calls.at(-1)![0] as ChartOptions;
    expect(options['color']).toContain('rgb(1, 1, 1)');
    jest.restoreAllMocks();
  });
});
