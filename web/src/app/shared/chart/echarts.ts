import type * as EChartsCore from 'echarts/core';

/**
 * ECharts, loaded on first use (60-web.md §6.5): `echarts/core` with only the Bar and Pie charts,
 * the grid, tooltip, legend and aria components and the SVG renderer. The dynamic imports keep
 * it out of the initial bundle and of every route that draws no chart; the bundler puts it in
 * one shared chunk.
 */
export async function loadEcharts(): Promise<typeof EChartsCore> {
  const [core, charts, components, renderers] = await Promise.all([
    import('echarts/core'),
    import('echarts/charts'),
    import('echarts/components'),
    import('echarts/renderers'),
  ]);
  core.use([
    charts.BarChart,
    charts.PieChart,
    components.GridComponent,
    components.TooltipComponent,
    components.LegendComponent,
    components.AriaComponent,
    renderers.SVGRenderer,
  ]);
  return core;
}
