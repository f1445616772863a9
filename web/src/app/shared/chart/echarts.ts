import type { init } from 'echarts/core';

/**
 * ECharts, loaded on the first chart drawn: `echarts-setup.ts` (core, Bar, Pie, SVG renderer)
 * in one lazy chunk, kept out of the initial bundle and of every route that draws no chart.
 * ngx-echarts only needs `init`.
 */
export async function loadEcharts(): Promise<{ init: typeof init }> {
  return import('./echarts-setup');
}
