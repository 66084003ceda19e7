// The a(c) line chart: one series per run (x = iteration, 0 = the base), y ∈ [−1, 1] with
// reference lines at 0 (the base) and 1 (the target). Regressed points are red triangles,
// iterations where pytest did not run are crosses at the last measured value.
import {
  Chart,
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  Legend,
  Tooltip,
  type ChartDataset,
  type Plugin,
  type ScriptableContext,
  type TooltipItem,
} from 'chart.js';
import * as l10n from '@vscode/l10n';
import type { ChartData, ChartPoint, ChartRun as ChartSeries } from '../src/shared/chart-types';
import { tooltipStyle, type Palette } from './palette';
import { formatA, formatDuration, formatTokens } from '../src/shared/metrics/metric-format';
import { runFlagLabel } from '../src/shared/metrics/run-flags';

Chart.register(LineController, LineElement, PointElement, LinearScale, Legend, Tooltip);

import { dodgeCoinciding } from './dodge';
import { seriesStyles } from './series-style';

interface XY {
  x: number;
  y: number;
  p: ChartPoint;
}

export interface LineChartOptions {
  hidden: Set<string>;
  onToggle(run: string, hidden: boolean): void;
  onPointClick?(run: string, iteration: number): void;
}

/** Horizontal reference lines at a(c) = 0 and 1, drawn under the series. */
function referenceLines(palette: () => Palette): Plugin<'line'> {
  return {
    id: 'sweciReferenceLines',
    beforeDatasetsDraw(chart) {
      const y = chart.scales.y;
      const { left, right } = chart.chartArea;
      const ctx = chart.ctx;
      ctx.save();
      ctx.strokeStyle = palette().muted;
      ctx.setLineDash([4, 4]);
      ctx.lineWidth = 1;
      for (const v of [0, 1]) {
        const py = Math.round(y.getPixelForValue(v)) + 0.5;
        ctx.beginPath();
        ctx.moveTo(left, py);
        ctx.lineTo(right, py);
        ctx.stroke();
      }
      ctx.restore();
    },
  };
}

/** Points to plot: a crashed iteration sits at the last measured a(c), so the line goes on. */
function toXY(s: ChartSeries): XY[] {
  let last = 0;
  return s.points.map((p) => {
    if (p.a !== null) last = p.a;
    return { x: p.iteration, y: p.a ?? last, p };
  });
}

export class LineChart {
  private chart: Chart<'line', XY[]> | undefined;
  private data: ChartData | undefined;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private palette: Palette,
    private readonly opts: LineChartOptions,
  ) {}

  setPalette(p: Palette): void {
    this.palette = p;
    if (this.data) this.render(this.data);
  }

  /** Draws `data`; returns the number of points drawn. */
  render(data: ChartData): number {
    this.data = data;
    const p = this.palette;
    const pointColour = (base: string) => (ctx: ScriptableContext<'line'>) => {
      const xy = ctx.raw as XY | undefined;
      return xy?.p.crashed ? p.crash : xy && xy.p.regressions > 0 ? p.regression : base;
    };
    const placed = dodgeCoinciding(data.runs.map(toXY));
    const styles = seriesStyles(data.runs, p);
    const datasets: ChartDataset<'line', XY[]>[] = data.runs.map((s, i) => {
      const style = styles[i];
      const colour = style.colour;
      const replay = s.kind === 'human-history';
      return {
        label: s.kind === 'agent' || s.run === s.kind ? s.run : `${s.run} (${s.kind})`,
        data: placed[i],
        // The developers' dashed line is drawn over the agents' (lower order is on top).
        order: replay ? 0 : 1,
        hidden: this.opts.hidden.has(s.run),
        borderColor: colour,
        backgroundColor: colour,
        borderWidth: 2,
        borderDash: style.dash.length ? style.dash : undefined,
        tension: 0,
        pointStyle: (ctx: ScriptableContext<'line'>) => {
          const xy = ctx.raw as XY | undefined;
          if (xy?.p.crashed) return 'crossRot';
          if (xy && xy.p.regressions > 0) return 'triangle';
          if (xy?.p.harnessTampering?.length || xy?.p.inflated) return 'rectRot';
          return style.marker;
        },
        pointRadius: (ctx: ScriptableContext<'line'>) => {
          const xy = ctx.raw as XY | undefined;
          return xy && (xy.p.crashed || xy.p.regressions > 0 || xy.p.harnessTampering?.length || xy.p.inflated) ? 6 : 3;
        },
        pointRotation: (ctx: ScriptableContext<'line'>) => ((ctx.raw as XY | undefined)?.p.regressions ? 180 : 0),
        pointBorderWidth: (ctx: ScriptableContext<'line'>) => ((ctx.raw as XY | undefined)?.p.crashed ? 2.5 : 1),
        // Hollow squares for the replay: they stay readable over an agent's filled circles.
        pointBackgroundColor: style.hollow ? p.background : pointColour(colour),
        pointBorderColor: pointColour(colour),
        pointHoverRadius: 7,
        segment: { borderDash: (ctx) => ((ctx.p1 as unknown as { raw?: XY }).raw?.p.crashed ? [2, 3] : undefined) },
      };
    });
    const maxX = Math.max(1, data.maxX);
    const grid = { color: p.grid };
    const ticks = { color: p.foreground, font: { family: p.font } };
    if (this.chart) this.chart.destroy();
    this.chart = new Chart<'line', XY[]>(this.canvas, {
      type: 'line',
      data: { datasets },
      plugins: [referenceLines(() => this.palette)],
      options: {
        animation: false,
        maintainAspectRatio: false,
        responsive: true,
        parsing: false,
        normalized: true,
        // Every run's point under the cursor: runs share points (the base, a solved a = 1).
        interaction: { mode: 'point', intersect: true },
        scales: {
          x: {
            type: 'linear',
            min: 0,
            max: maxX,
            title: { display: true, text: l10n.t('iteration (0 = base)'), color: p.muted },
            ticks: { ...ticks, stepSize: 1, precision: 0 },
            grid,
          },
          y: {
            type: 'linear',
            min: -1,
            max: 1,
            title: { display: true, text: l10n.t('normalized change a(c)'), color: p.muted },
            ticks: { ...ticks, stepSize: 0.25, callback: (v) => formatA(Number(v)).replace('+', '') },
            grid,
          },
        },
        plugins: {
          legend: {
            labels: { color: p.foreground, font: { family: p.font }, usePointStyle: true, pointStyle: 'line' },
            onClick: (_e, item, legend) => {
              const i = item.datasetIndex ?? -1;
              const s = data.runs[i];
              if (!s) return;
              const hide = legend.chart.isDatasetVisible(i);
              legend.chart.setDatasetVisibility(i, !hide);
              legend.chart.update();
              this.opts.onToggle(s.run, hide);
            },
          },
          tooltip: {
            ...tooltipStyle(p),
            callbacks: {
              title: (items: TooltipItem<'line'>[]) => {
                const xy = items[0]?.raw as XY | undefined;
                return xy ? (xy.p.iteration === 0 ? l10n.t('base') : l10n.t('iteration {0}', xy.p.iteration)) : '';
              },
              label: (item: TooltipItem<'line'>) => {
                const xy = item.raw as XY;
                return `${data.runs[item.datasetIndex].run}: ${xy.p.crashed ? l10n.t('pytest did not run') : `a(c) ${formatA(xy.p.a)}`}`;
              },
              afterLabel: (item: TooltipItem<'line'>) => pointDetails((item.raw as XY).p),
            },
          },
        },
        onClick: (event) => {
          if (!this.chart || !this.opts.onPointClick) return;
          const hit = this.chart.getElementsAtEventForMode(event.native as Event, 'nearest', { intersect: true }, false)[0];
          const s = hit && data.runs[hit.datasetIndex];
          const point = s?.points[hit.index];
          if (s && point) this.opts.onPointClick(s.run, point.iteration);
        },
      },
    });
    return datasets.reduce((n, d) => n + d.data.length, 0);
  }
}

export function pointDetails(p: ChartPoint): string[] {
  const lines = [
    l10n.t('passed {0} / target {1}', p.passed === null ? '—' : p.passed, p.targetPassed),
    p.gap < 0 ? (p.pytestError ? l10n.t('gap — (pytest did not run: {0})', p.pytestError) : l10n.t('gap — (pytest did not run)')) : l10n.t('gap {0}', p.gap),
    l10n.t('regressions {0}', p.regressions),
    p.tokensIn + p.tokensOut === 0 ? l10n.t('tokens: none recorded') : l10n.t('tokens {0} in · {1} out', formatTokens(p.tokensIn), formatTokens(p.tokensOut)),
    l10n.t('time {0}', formatDuration(p.timeSec)),
  ];
  if (p.harnessTampering?.length) lines.push(l10n.t('harness changed: {0}', p.harnessTampering.join(', ')));
  if (p.inflated)
    lines.push(
      p.inflated === 1 ? l10n.t('inflated: 1 passed test the target never had') : l10n.t('inflated: {0} passed tests the target never had', p.inflated),
    );
  const other = (p.flags ?? []).filter((f) => f !== 'harness-tampering' && f !== 'inflated');
  if (other.length) lines.push(l10n.t('flagged: {0}', other.map((f) => runFlagLabel(f)).join('; ')));
  if (p.note) lines.push(p.note);
  if (p.commit) lines.push(p.commit.slice(0, 10));
  return lines;
}
