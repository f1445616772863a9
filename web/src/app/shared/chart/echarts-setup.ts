// The ECharts build the app draws with (60-web.md §6.5): `echarts/core` with only the Bar and
// Pie charts, the grid, tooltip, legend and aria components and the SVG renderer. Named static
// imports let the bundler drop every other chart; this module itself is only ever imported
// dynamically (`echarts.ts`), so it forms one lazy chunk.
import { BarChart, PieChart } from 'echarts/charts';
import {
  AriaComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
} from 'echarts/components';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

use([
  BarChart,
  PieChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  AriaComponent,
  SVGRenderer,
]);

export { init };
