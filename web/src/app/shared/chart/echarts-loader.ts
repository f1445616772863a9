import { InjectionToken } from '@angular/core';
import { loadEcharts } from './echarts';

/**
 * How `app-chart-card` gets ECharts: the lazy `loadEcharts` in the app; specs provide a stand-in
 * (jsdom has no layout for a real chart).
 */
export const ECHARTS_LOADER = new InjectionToken<() => Promise<unknown>>('ECHARTS_LOADER', {
  providedIn: 'root',
  factory: () => loadEcharts,
});
