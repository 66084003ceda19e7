// A task sequence in the chart view (SWE-Bench-CL): the results matrix as a heatmap (row = after
// task i, column = task j re-run on its code), the learning curve, and the continual-learning
// metrics with why any is missing. Shown only when the open task belongs to a sequence.
import * as l10n from '@vscode/l10n';
import { CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import type { SequenceData } from '../src/shared/sequence-data-schema';
import { tooltipStyle, type Palette } from './palette';
import { el } from './dom';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Tooltip);

/** How an entry reads: its text, its class (colour) and what its tooltip says. */
function cellOf(v: number | null, cells: SequenceData['cells']): { cls: string; text: string; says: string } {
  if (v === null) return { cls: 'unmeasured', text: '·', says: 'not measured' };
  if (cells === 'resolved') return v === 1 ? { cls: 'pass', text: '1', says: l10n.t('resolved') } : { cls: 'fail', text: '0', says: l10n.t('not resolved') };
  const share = l10n.t('{0} % of its tests pass', Math.round(v * 100));
  return { cls: v === 1 ? 'pass' : v === 0 ? 'fail' : 'partial', text: v === 1 || v === 0 ? String(v) : v.toFixed(2), says: share };
}

/** What the matrix holds, said above it. */
const MEANING: Record<SequenceData['cells'], () => string> = {
  fraction: () => l10n.t("the share of its tests that pass (SWE-Bench-CL's a_ij)"),
  resolved: () => l10n.t('resolved as SWE-bench grades it: 1, or 0'),
};

export class SequenceView {
  readonly root = el('section', { id: 'sequence', 'aria-label': l10n.t('Task sequence') });
  private readonly title = el('h2');
  private readonly note = el('p', { class: 'note' });
  private readonly matrix = el('table', { id: 'sequence-matrix', class: 'seq-matrix' });
  private readonly curveBox = el('div', { class: 'seq-curve-box' });
  private readonly canvas = el('canvas', { id: 'learning-curve', role: 'img', 'aria-label': l10n.t('learning curve over the sequence') });
  private readonly metrics = el('table', { id: 'sequence-metrics', class: 'seq-metrics' });
  private chart: Chart<'line', Array<number | null>, string> | undefined;
  private data: SequenceData | null = null;

  constructor(private palette: Palette) {
    this.curveBox.append(this.canvas);
    const note = this.note;
    // Matrix and metrics on the left, the learning curve beside them (stacked when narrow).
    const grid = el('div', { class: 'seq-grid' });
    const left = el('div', { class: 'seq-left' });
    left.append(this.matrix, this.metrics);
    const right = el('div', { class: 'seq-right' });
    right.append(this.curveBox);
    grid.append(left, right);
    this.root.append(this.title, note, grid);
    this.root.hidden = true;
  }

  setPalette(p: Palette): void {
    this.palette = p;
    if (this.data) this.render(this.data);
  }

  render(d: SequenceData | null): void {
    this.data = d;
    this.root.hidden = !d;
    if (!d) {
      this.chart?.destroy();
      this.chart = undefined;
      return;
    }
    const done = d.matrix.filter((r) => r.length > 0).length;
    this.title.textContent = d.memory
      ? l10n.t('Sequence {0} · {1} of {2} tasks done · memory on', d.sequence, done, d.tasks.length)
      : l10n.t('Sequence {0} · {1} of {2} tasks done · memory off', d.sequence, done, d.tasks.length);
    this.note.textContent = l10n.t(
      "Row: after that task was done. Column: a task whose tests (FAIL_TO_PASS ∪ PASS_TO_PASS) were re-run on that row's code. Each entry: {0}; · not measured.",
      MEANING[d.cells](),
    );
    this.renderMatrix(d);
    this.renderCurve(d);
    this.renderMetrics(d);
  }

  private renderMatrix(d: SequenceData): void {
    const m = this.matrix;
    m.replaceChildren();
    const head = m.createTHead().insertRow();
    head.append(el('th', { scope: 'col' }, l10n.t('after ↓ · re-run →')));
    d.tasks.forEach((t, j) => head.append(el('th', { scope: 'col', title: t, class: j === d.current ? 'current' : '' }, String(j + 1))));
    const body = m.createTBody();
    d.tasks.forEach((task, i) => {
      const row = body.insertRow();
      if (i === d.current) row.className = 'current';
      row.append(el('th', { scope: 'row', title: task }, `${i + 1}. ${task}`));
      d.tasks.forEach((other, j) => {
        const v = d.matrix[i][j];
        if (j > i || d.matrix[i].length === 0) {
          row.append(el('td', { class: 'empty' }));
          return;
        }
        const c = cellOf(v, d.cells);
        const td = el('td', { class: c.cls, title: l10n.t('after {0}, {1}: {2}', task, other, c.says) }, c.text);
        if (i === j) td.classList.add('diagonal');
        row.append(td);
      });
    });
  }

  private renderCurve(d: SequenceData): void {
    const p = this.palette;
    const ticks = { color: p.foreground, font: { family: p.font } };
    this.chart?.destroy();
    this.chart = new Chart<'line', Array<number | null>, string>(this.canvas, {
      type: 'line',
      data: {
        labels: d.tasks.map((_, i) => String(i + 1)),
        datasets: [
          {
            label: l10n.t('learning curve (first attempts so far)'),
            data: d.learning,
            borderColor: p.series[0],
            backgroundColor: p.series[0],
            pointRadius: 3,
            spanGaps: false,
            // At 1.0 the line sits on the top edge: draw it whole.
            clip: 8,
          },
          {
            label: l10n.t('accuracy on the tasks so far'),
            data: d.accuracy,
            borderColor: p.series[1] ?? p.muted,
            backgroundColor: p.series[1] ?? p.muted,
            borderDash: [6, 3],
            pointStyle: 'rect',
            pointRadius: 3,
            spanGaps: false,
            clip: 8,
          },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        responsive: true,
        layout: { padding: { top: 6 } },
        scales: {
          x: { title: { display: true, text: 'after task', color: p.muted }, ticks, grid: { color: p.grid } },
          y: {
            min: 0,
            max: 1,
            title: { display: true, text: 'success rate', color: p.muted },
            ticks: { ...ticks, stepSize: 0.25, callback: (v) => Number(v).toFixed(2) },
            grid: { color: p.grid },
          },
        },
        plugins: {
          legend: { labels: { color: p.foreground, font: { family: p.font }, usePointStyle: true, pointStyle: 'line' } },
          tooltip: {
            ...tooltipStyle(p),
            callbacks: { title: (items) => (items[0] ? `after ${d.tasks[items[0].dataIndex]}` : '') },
          },
        },
      },
    });
  }

  private renderMetrics(d: SequenceData): void {
    const t = this.metrics;
    t.replaceChildren();
    const body = t.createTBody();
    for (const m of d.metrics) {
      const row = body.insertRow();
      row.append(el('th', { scope: 'row' }, m.name));
      row.append(el('td', { class: 'num' }, m.value === null ? l10n.t('n/a') : m.value.toFixed(3)));
      row.append(el('td', { class: 'why' }, m.value === null ? (m.missing ?? '') : m.note ? `(${m.note})` : ''));
    }
  }
}
