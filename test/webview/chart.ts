// The chart webview's test build (esbuild.mjs: dist-test/webview.js): the product's page, and a
// report of what it drew: the runs it lists, the points Chart.js holds, γ and the theme colour.
import '../../webview-ui/main';
import { Chart } from 'chart.js';
import { themePalette } from '../../webview-ui/palette';
import { reportDrawn } from './report-drawn';

reportDrawn(() => {
  const canvas = document.getElementById('chart');
  const chart = canvas instanceof HTMLCanvasElement ? Chart.getChart(canvas) : undefined;
  const select = document.getElementById('heatmap-run');
  const gamma = document.getElementById('gamma-number');
  if (!chart || !(select instanceof HTMLSelectElement) || !(gamma instanceof HTMLInputElement)) return undefined;
  return {
    runs: [...select.options].map((o) => o.value),
    points: chart.data.datasets.reduce((n, d) => n + d.data.length, 0),
    gamma: Number(gamma.value),
    foreground: themePalette().foreground,
  };
});
