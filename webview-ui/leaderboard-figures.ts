// The leaderboard's four figures, drawn with Chart.js in the theme's colours: EvoScore(γ=1) with
// its interval against release date, one line per provider (the paper's Figure 4); the rank at
// each γ as a bump chart (Figure 5); the zero-regression rates sorted, with their intervals
// (Figure 6); and EvoScore against cost per task, the frontier joined. An entry highlighted (its
// table row hovered or focused, or a point hovered) stands out in every figure.
import * as l10n from '@vscode/l10n';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
  type ActiveElement,
  type ChartEvent,
  type Plugin,
} from 'chart.js';
import type { LeaderboardEntry, LeaderboardRecord } from '../src/shared/leaderboard-record';
import { parseColour } from './colour-distance';
import {
  bumpSeries,
  byZeroRegression,
  costAxis,
  dayLabel,
  emptyFigures,
  valueTick,
  extent,
  formatInterval,
  formatRate,
  formatScore,
  frontierPoints,
  providerOf,
  releaseDay,
  releaseSeries,
  type ProviderStyle,
} from './leaderboard-model';
import { tooltipStyle, type Palette } from './palette';

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, ScatterController, Tooltip);

type Interval = readonly [number, number];
interface Point {
  x: number;
  y: number;
  label: string;
}

export interface FigureCanvases {
  release: HTMLCanvasElement;
  bump: HTMLCanvasElement;
  zero: HTMLCanvasElement;
  cost: HTMLCanvasElement;
}

/** A colour at a fraction of its strength (the entries not highlighted). */
function faded(colour: string, alpha: number): string {
  const rgb = parseColour(colour);
  return rgb ? `rgba(${rgb.map(Math.round).join(', ')}, ${alpha})` : colour;
}

/**
 * Draws each point's interval as a whisker: vertical on a value y axis, horizontal on a bar
 * chart laid on its side. `intervals[d][i]` is dataset d's point i's interval, in axis units.
 */
function whiskers(intervals: () => (Interval | null)[][], colour: (d: number, i: number) => string, horizontal: boolean): Plugin {
  return {
    id: 'sweciWhiskers',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx;
      const value = horizontal ? chart.scales.x : chart.scales.y;
      ctx.save();
      ctx.lineWidth = 1.5;
      intervals().forEach((list, d) => {
        const meta = chart.getDatasetMeta(d);
        if (meta.hidden) return;
        list.forEach((iv, i) => {
          const p = meta.data[i];
          if (!iv || !p) return;
          const [a, b] = [value.getPixelForValue(iv[0]), value.getPixelForValue(iv[1])];
          ctx.strokeStyle = colour(d, i);
          ctx.beginPath();
          if (horizontal) {
            ctx.moveTo(a, p.y);
            ctx.lineTo(b, p.y);
            for (const x of [a, b]) {
              ctx.moveTo(x, p.y - 4);
              ctx.lineTo(x, p.y + 4);
            }
          } else {
            ctx.moveTo(p.x, a);
            ctx.lineTo(p.x, b);
            for (const y of [a, b]) {
              ctx.moveTo(p.x - 4, y);
              ctx.lineTo(p.x + 4, y);
            }
          }
          ctx.stroke();
        });
      });
      ctx.restore();
    },
  };
}

/**
 * The bump chart's names at its right edge, beside each entry's last point. Entries tied at the
 * last γ share a rank, and the ranks after them are empty: their names go one under the other there.
 */
function endLabels(series: () => { label: string; y: number | null }[], colour: (label: string) => string, font: string): Plugin {
  return {
    id: 'sweciEndLabels',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx;
      const x = chart.chartArea.right + 8;
      const y = chart.scales.y;
      const step = Math.abs(y.getPixelForValue(2) - y.getPixelForValue(1));
      const seen = new Map<number, number>();
      ctx.save();
      ctx.font = `12px ${font}`;
      ctx.textBaseline = 'middle';
      for (const s of series()) {
        if (s.y === null) continue;
        const k = seen.get(s.y) ?? 0;
        seen.set(s.y, k + 1);
        ctx.fillStyle = colour(s.label);
        ctx.fillText(s.label, x, y.getPixelForValue(s.y) + k * step);
      }
      ctx.restore();
    },
  };
}

/** An axis's bounds with a little room beyond the values. */
function padded({ min, max }: { min: number; max: number }): { min: number; max: number } {
  const room = (max - min) * 0.06 || 0.05;
  return { min: min - room, max: max + room };
}

/**
 * Names beside chosen points, so a figure reads without hovering: above right of the point, else
 * below it, else (both would cover a name already drawn) left out; near the right edge, to the left.
 */
function pointLabels(
  points: () => { x: number; y: number; label: string }[],
  colour: (label: string) => string,
  palette: { font: string; background: string },
): Plugin {
  return {
    id: 'sweciPointLabels',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx;
      const drawn: { l: number; t: number; r: number; b: number }[] = [];
      const free = (box: { l: number; t: number; r: number; b: number }) => !drawn.some((d) => box.l < d.r && box.r > d.l && box.t < d.b && box.b > d.t);
      ctx.save();
      ctx.font = `11px ${palette.font}`;
      ctx.textBaseline = 'middle';
      for (const p of points()) {
        const x = chart.scales.x.getPixelForValue(p.x);
        const y = chart.scales.y.getPixelForValue(p.y);
        const w = ctx.measureText(p.label).width;
        const left = x + 8 + w > chart.chartArea.right ? x - 8 - w : x + 8;
        const box = [y - 10, y + 10].map((cy) => ({ l: left, t: cy - 6, r: left + w, b: cy + 6 })).find(free);
        if (!box) continue;
        drawn.push(box);
        // A veil under the name, so a line or whisker behind it does not cross it out.
        ctx.fillStyle = faded(palette.background, 0.8);
        ctx.fillRect(box.l - 2, box.t, box.r - box.l + 4, box.b - box.t);
        ctx.fillStyle = colour(p.label);
        ctx.fillText(p.label, box.l, (box.t + box.b) / 2);
      }
      ctx.restore();
    },
  };
}

export class LeaderboardFigures {
  private charts: Chart[] = [];
  private highlighted: string | undefined;
  private restyle: (() => void)[] = [];

  constructor(
    private readonly canvases: FigureCanvases,
    private readonly opts: { onEntryClick?(label: string): void; onHover(label: string | undefined): void },
  ) {}

  /** Draws the record anew (a new record, or a theme change). */
  render(record: LeaderboardRecord, palette: Palette, styles: Map<string, ProviderStyle>): void {
    this.destroy();
    Chart.defaults.color = palette.foreground;
    Chart.defaults.borderColor = palette.grid;
    Chart.defaults.font.family = palette.font;
    const styleOf = (e: LeaderboardEntry): ProviderStyle => styles.get(providerOf(e)) ?? { colour: palette.foreground, marker: 'circle', dash: [] };
    const byLabel = new Map(record.entries.map((e) => [e.label, e]));
    // A figure with nothing to draw is not drawn: the page says what would fill it instead.
    const empty = emptyFigures(record);
    this.charts = [
      ...(empty.release ? [] : [this.releaseChart(record, palette, styles)]),
      this.bumpChart(record, palette, (label) => styleOf(byLabel.get(label)!)),
      this.zeroChart(record, palette, styleOf),
      ...(empty.cost ? [] : [this.costChart(record, palette, styleOf)]),
    ];
  }

  /** Makes one entry stand out in every figure (undefined: none). */
  highlight(label: string | undefined): void {
    if (label === this.highlighted) return;
    this.highlighted = label;
    for (const f of this.restyle) f();
    for (const c of this.charts) c.update('none');
  }

  private tint(label: string, colour: string): string {
    return this.highlighted === undefined || this.highlighted === label ? colour : faded(colour, 0.18);
  }

  private common(palette: Palette, labelAt: (d: number, i: number) => string | undefined) {
    return {
      responsive: true,
      maintainAspectRatio: false,
      animation: false as const,
      onClick: (_e: ChartEvent, els: ActiveElement[]) => {
        const label = els[0] && labelAt(els[0].datasetIndex, els[0].index);
        if (label) this.opts.onEntryClick?.(label);
      },
      onHover: (_e: ChartEvent, els: ActiveElement[]) => this.opts.onHover(els[0] && labelAt(els[0].datasetIndex, els[0].index)),
      plugins: { tooltip: { ...tooltipStyle(palette) } },
    };
  }

  private releaseChart(record: LeaderboardRecord, palette: Palette, styles: Map<string, ProviderStyle>): Chart {
    const { series } = releaseSeries(record);
    const data = series.map((s) => s.entries.map((e) => ({ x: releaseDay(e.released!), y: e.evoScore['1'] ?? 0, label: e.label })));
    const colourOf = (d: number) => styles.get(series[d].provider)?.colour ?? palette.foreground;
    const chart = new Chart<'line', Point[]>(this.canvases.release, {
      type: 'line',
      data: {
        datasets: series.map((s, d) => {
          const st = styles.get(s.provider);
          return {
            label: s.provider,
            data: data[d],
            borderColor: colourOf(d),
            backgroundColor: colourOf(d),
            borderDash: st?.dash ?? [],
            pointStyle: st?.marker ?? 'circle',
            pointRadius: 4,
            pointHoverRadius: 6,
            borderWidth: 1.5,
          };
        }),
      },
      options: {
        ...this.common(palette, (d, i) => data[d]?.[i]?.label),
        parsing: false,
        scales: {
          x: { type: 'linear', title: { display: true, text: 'Release date' }, ticks: { callback: (v) => dayLabel(Number(v)) } },
          // The whiskers inside the axis, not only the points.
          y: {
            title: { display: true, text: 'EvoScore (γ=1), 95% interval' },
            ...padded(extent(series.flatMap((s) => s.entries.flatMap((e) => e.evoScoreCI95)))),
            ticks: { callback: valueTick },
          },
        },
        plugins: {
          legend: { position: 'bottom', labels: { usePointStyle: true, boxHeight: 8 } },
          tooltip: {
            ...tooltipStyle(palette),
            callbacks: {
              title: (items) => items.map((it) => (it.raw as Point).label).join(', '),
              label: (it) => {
                const e = record.entries.find((x) => x.label === (it.raw as Point).label)!;
                return `${providerOf(e)} · ${e.released} · EvoScore ${formatScore(e.evoScore['1'] ?? 0)} (${formatInterval(e.evoScoreCI95, formatScore)})`;
              },
            },
          },
        },
      },
      plugins: [
        // Best first, so a name left out for want of room is a lower entry's.
        pointLabels(
          () => data.flat().sort((a, b) => b.y - a.y),
          (label) => this.tint(label, palette.muted),
          palette,
        ),
        whiskers(
          () => series.map((s) => s.entries.map((e) => e.evoScoreCI95)),
          (d, i) => this.tint(data[d][i].label, colourOf(d)),
          false,
        ),
      ],
    });
    this.restyle.push(() =>
      chart.data.datasets.forEach((ds, d) => {
        ds.pointBackgroundColor = data[d].map((p) => this.tint(p.label, colourOf(d)));
        ds.pointBorderColor = ds.pointBackgroundColor;
      }),
    );
    return chart;
  }

  private bumpChart(record: LeaderboardRecord, palette: Palette, style: (label: string) => ProviderStyle): Chart {
    const rows = bumpSeries(record);
    const last = record.gammas.length - 1;
    const chart = new Chart<'line', (number | null)[], string>(this.canvases.bump, {
      type: 'line',
      data: {
        labels: record.gammas.map((g) => `γ=${g}`),
        datasets: rows.map((r) => ({
          label: r.label,
          data: r.ranks,
          borderColor: style(r.label).colour,
          backgroundColor: style(r.label).colour,
          borderDash: style(r.label).dash,
          pointStyle: style(r.label).marker,
          pointRadius: 3.5,
          pointHoverRadius: 6,
          borderWidth: 2,
        })),
      },
      options: {
        ...this.common(palette, (d) => rows[d]?.label),
        layout: { padding: { right: 190 } },
        interaction: { mode: 'point', intersect: true },
        scales: {
          x: { title: { display: true, text: 'γ (below 1: early iterations weigh more; above 1: later ones)' }, offset: true },
          y: {
            reverse: true,
            min: 0.5,
            max: record.entries.length + 0.5,
            title: { display: true, text: 'Rank' },
            afterBuildTicks: (axis) => {
              axis.ticks = record.entries.map((_e, i) => ({ value: i + 1 }));
            },
            ticks: { autoSkip: false, font: { size: 11 } },
            grid: { display: false },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            ...tooltipStyle(palette),
            callbacks: {
              title: (items) => items.map((it) => rows[it.datasetIndex].label).join(', '),
              label: (it) => {
                const r = rows[it.datasetIndex];
                const score = r.scores[it.dataIndex];
                return `rank ${r.ranks[it.dataIndex] ?? '—'} at γ=${record.gammas[it.dataIndex]} · EvoScore ${score === null ? '—' : formatScore(score)}`;
              },
            },
          },
        },
      },
      plugins: [
        endLabels(
          () => rows.map((r) => ({ label: r.label, y: r.ranks[last] })),
          (label) => this.tint(label, style(label).colour),
          palette.font,
        ),
      ],
    });
    this.restyle.push(() =>
      chart.data.datasets.forEach((ds, d) => {
        const label = rows[d].label;
        ds.borderColor = this.tint(label, style(label).colour);
        ds.backgroundColor = ds.borderColor;
        ds.borderWidth = this.highlighted === label ? 3.5 : 2;
      }),
    );
    return chart;
  }

  private zeroChart(record: LeaderboardRecord, palette: Palette, style: (e: LeaderboardEntry) => ProviderStyle): Chart {
    const order = byZeroRegression(record);
    const colours = () => order.map((e) => this.tint(e.label, style(e).colour));
    const chart = new Chart<'bar', number[], string>(this.canvases.zero, {
      type: 'bar',
      data: {
        labels: order.map((e) => e.label),
        datasets: [
          { label: l10n.t('Zero-regression rate'), data: order.map((e) => e.zeroRegressionRate * 100), backgroundColor: colours(), barPercentage: 0.75 },
        ],
      },
      options: {
        ...this.common(palette, (_d, i) => order[i]?.label),
        indexAxis: 'y',
        scales: {
          x: { min: 0, max: 100, title: { display: true, text: 'Zero-regression rate (%), 95% interval' } },
          y: { ticks: { autoSkip: false, font: { size: 11 } }, grid: { display: false } },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            ...tooltipStyle(palette),
            callbacks: {
              label: (it) => {
                const e = order[it.dataIndex];
                return `${formatRate(e.zeroRegressionRate)} (${formatInterval(e.zeroRegressionCI95, formatRate)}) of ${e.tasks} tasks`;
              },
            },
          },
        },
      },
      plugins: [
        whiskers(
          () => [order.map((e) => [e.zeroRegressionCI95[0] * 100, e.zeroRegressionCI95[1] * 100] as const)],
          (_d, i) => this.tint(order[i].label, palette.foreground),
          true,
        ),
      ],
    });
    this.restyle.push(() => (chart.data.datasets[0].backgroundColor = colours()));
    return chart;
  }

  private costChart(record: LeaderboardRecord, palette: Palette, style: (e: LeaderboardEntry) => ProviderStyle): Chart {
    const axis = costAxis(record);
    // Entries with no cost (or tokens) are left out: the page's notes name them.
    const shown = record.entries.filter((e) => axis.value(e) !== null);
    const points = shown.map((e) => ({ x: axis.value(e) ?? 0, y: e.evoScore['1'] ?? 0, label: e.label }));
    const frontier = frontierPoints(record, axis.value);
    const colours = () => shown.map((e) => this.tint(e.label, style(e).colour));
    const byLabel = new Map(shown.map((e) => [e.label, e]));
    const chart = new Chart<'scatter', Point[]>(this.canvases.cost, {
      type: 'scatter',
      data: {
        datasets: [
          {
            label: l10n.t('Entries'),
            data: points,
            backgroundColor: colours(),
            borderColor: colours(),
            pointStyle: shown.map((e) => style(e).marker),
            pointRadius: shown.map((e) => (e.onCostFrontier ? 6 : 4)),
            pointHoverRadius: 7,
          },
          {
            label: l10n.t('Cost frontier'),
            data: frontier,
            showLine: true,
            borderColor: palette.foreground,
            borderDash: [5, 4],
            borderWidth: 1.5,
            pointRadius: 0,
            pointHitRadius: 0,
          },
        ],
      },
      options: {
        ...this.common(palette, (d, i) => (d === 0 ? points[i]?.label : undefined)),
        parsing: false,
        scales: {
          x: { min: 0, title: { display: true, text: axis.title }, ticks: { callback: (v) => axis.format(Number(v)) }, grace: '8%' },
          y: { title: { display: true, text: 'EvoScore (γ=1)' }, grace: '5%', ticks: { callback: valueTick } },
        },
        plugins: {
          legend: { position: 'bottom', labels: { filter: (item) => item.datasetIndex === 1 } },
          tooltip: {
            ...tooltipStyle(palette),
            filter: (it) => it.datasetIndex === 0,
            callbacks: {
              label: (it) => {
                const p = it.raw as Point;
                return `${p.label}${byLabel.get(p.label)?.onCostFrontier ? ' (on the frontier)' : ''}: ${axis.format(p.x)} · EvoScore ${formatScore(p.y)}`;
              },
            },
          },
        },
      },
      plugins: [
        pointLabels(
          () => frontier,
          (label) => this.tint(label, palette.foreground),
          palette,
        ),
      ],
    });
    this.restyle.push(() => {
      chart.data.datasets[0].backgroundColor = colours();
      chart.data.datasets[0].borderColor = colours();
    });
    return chart;
  }

  destroy(): void {
    for (const c of this.charts) c.destroy();
    this.charts = [];
    this.restyle = [];
  }
}
