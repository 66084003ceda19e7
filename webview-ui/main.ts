// The chart webview: the a(c) line chart, the γ control with the runs table, and the per-test
// heatmap. Runs inside VS Code (data from the host) or standalone in an exported report.
import './zod-config';
import './l10n-config';
import * as l10n from '@vscode/l10n';
import type { ChartData, HeatmapData as Heatmap } from '../src/shared/chart-types';
import { DEFAULT_GAMMA, GAMMA_MAX, GAMMA_MIN, type HostMessage } from '../src/shared/chart-protocol';
import { createBridge, readReportPayload, type ViewState } from './host-bridge';
import { drawHeatmap, heatmapHit, opaqueColour, type HeatmapLayout } from './heatmap';
import { diffHeatmaps, differingTests } from './heatmap-diff';
import { diffOutcomeText, outcomeText } from './outcome-text';
import { LineChart } from './line-chart';
import { standalonePalette, themePalette, type Palette } from './palette';
import { renderRunsTable } from './runs-table';
import { SequenceView } from './sequence-view';
import { el } from './dom';

const bridge = createBridge();
const saved = bridge.getState();
const state: ViewState = {
  gamma: saved?.gamma ?? DEFAULT_GAMMA,
  hidden: saved?.hidden ?? [],
  heatmapRun: saved?.heatmapRun,
  heatmapCompare: saved?.heatmapCompare,
};
const palette = (): Palette => (bridge.standalone ? standalonePalette() : themePalette());
let data: ChartData | undefined;
let heatmap: Heatmap | undefined;
let heatmapLayoutNow: HeatmapLayout | undefined;
/** Exported reports carry every run's heatmap. */
const embeddedHeatmaps = new Map<string, Heatmap>();
/** Heatmaps received from the host, by run, until the data changes (a comparison needs two). */
const received = new Map<string, Heatmap>();
/** Whether the heatmap drawn is a comparison of two runs. */
let comparing = false;

// --- layout -------------------------------------------------------------------------------
const app = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
if (bridge.standalone) document.body.classList.add('sweci-standalone');
const header = el('header');
const title = el('h1', {}, l10n.t('Normalized change a(c) per pytest run'));
const gammaLabel = el('label', { for: 'gamma' }, l10n.t('γ'));
const gammaRange = el('input', {
  id: 'gamma',
  type: 'range',
  min: String(GAMMA_MIN),
  max: String(GAMMA_MAX),
  step: '0.05',
  'aria-label': l10n.t('EvoScore γ'),
});
const gammaNumber = el('input', {
  id: 'gamma-number',
  type: 'number',
  min: String(GAMMA_MIN),
  max: String(GAMMA_MAX),
  step: '0.05',
  'aria-label': l10n.t('EvoScore γ value'),
});
const exportButton = el('button', { id: 'export', type: 'button' }, l10n.t('Export Report…'));
const status = el('span', { id: 'status', role: 'status' });
header.append(title, el('span', { class: 'spacer' }), gammaLabel, gammaRange, gammaNumber, ...(bridge.standalone ? [] : [exportButton]), status);
const chartBox = el('div', { class: 'chart-box' });
const chartCanvas = el('canvas', { id: 'chart', 'aria-label': l10n.t('a(c) per iteration and run'), role: 'img' });
chartBox.append(chartCanvas);
// Clicking a point opens the iteration in VS Code; an exported report has nothing to open.
const legendNote = el(
  'p',
  { class: 'note' },
  bridge.standalone
    ? l10n.t(
        '▼ tests regressed · ✕ pytest did not run (drawn at the last measured value) · ◆ flagged: the code changes how pytest runs (harness tampering) or passes tests the target never had (inflated) · ⚑ a flagged run (hover it for why) · dashed with hollow squares: human history.',
      )
    : l10n.t(
        '▼ tests regressed · ✕ pytest did not run (drawn at the last measured value) · ◆ flagged: the code changes how pytest runs (harness tampering) or passes tests the target never had (inflated) · ⚑ a flagged run (hover it for why) · dashed with hollow squares: human history. Click a point to open that iteration.',
      ),
);
const table = el('table', { id: 'runs' });
const heatHeader = el('div', { class: 'heat-header' });
const heatSelect = el('select', { id: 'heatmap-run', 'aria-label': l10n.t('Run of the heatmap') });
const heatCompare = el('select', { id: 'heatmap-compare', 'aria-label': l10n.t('Compare the heatmap’s run with') });
const heatKey = el('span', { class: 'heat-key' });
heatHeader.append(el('h2', {}, l10n.t('Per-test results')), heatSelect, heatCompare, heatKey);
const heatInfo = el('div', { class: 'heat-info' });
const heatBox = el('div', { class: 'heat-box' });
const heatColumns = el('div', { class: 'heat-columns', 'aria-hidden': 'true' });
const heatCanvas = el('canvas', { id: 'heatmap', 'aria-label': l10n.t('tests × iterations'), role: 'img' });
// Test names beside their rows when each row is one test and tall enough to read.
const heatNames = el('div', { class: 'heat-names', 'aria-hidden': 'true' });
const heatGrid = el('div', { class: 'heat-grid' });
const heatCells = el('div', { class: 'heat-cells' });
heatCells.append(heatColumns, heatCanvas);
heatGrid.append(heatNames, heatCells);
heatBox.append(heatGrid);
// A hover card in the editor's hover colours, not the browser's plain title.
const heatTip = el('div', { class: 'heat-tip', role: 'tooltip', hidden: '' });
heatBox.append(heatTip);
const skippedNote = el('p', { class: 'note skipped' });
skippedNote.hidden = true;
const empty = el('p', { class: 'empty' }, l10n.t('No runs yet. Run an iteration, or Record Human History, and the chart fills in.'));
const tableBox = el('div', { class: 'table-box' });
tableBox.append(table);
const sequenceView = new SequenceView(palette());
app.append(header, skippedNote, chartBox, legendNote, el('h2', {}, l10n.t('Runs')), tableBox, sequenceView.root, heatHeader, heatInfo, heatBox, empty);

// --- behaviour ----------------------------------------------------------------------------
const chart = new LineChart(chartCanvas, palette(), {
  hidden: new Set(state.hidden),
  onToggle: (run, hidden) => {
    state.hidden = hidden ? [...new Set([...state.hidden, run])] : state.hidden.filter((r) => r !== run);
    bridge.setState(state);
  },
  onPointClick: bridge.standalone ? undefined : (run, iteration) => bridge.request({ type: 'point-clicked', run, iteration }),
});

function setGamma(g: number, fromHost = false): void {
  if (!Number.isFinite(g)) return;
  state.gamma = Math.min(GAMMA_MAX, Math.max(GAMMA_MIN, g));
  gammaRange.value = String(state.gamma);
  gammaNumber.value = state.gamma.toFixed(2);
  bridge.setState(state);
  if (data) renderRunsTable(table, data, state.gamma, palette());
  if (!fromHost) bridge.post({ type: 'gamma-changed', gamma: state.gamma });
}
gammaRange.addEventListener('input', () => setGamma(Number(gammaRange.value)));
gammaNumber.addEventListener('change', () => setGamma(Number(gammaNumber.value)));
exportButton.addEventListener('click', () => bridge.request({ type: 'export-requested' }));
heatSelect.addEventListener('change', () => chooseHeatmapRun(heatSelect.value));
heatCompare.addEventListener('change', () => chooseHeatmapRun(heatSelect.value, heatCompare.value || undefined));

/** Shows `run`'s heatmap, or where it differs from `compare`'s; asks the host for what it lacks. */
function chooseHeatmapRun(run: string, compare = state.heatmapCompare): void {
  state.heatmapRun = run;
  const known = (data?.runs ?? []).map((s) => s.run);
  state.heatmapCompare = compare && compare !== run && known.includes(compare) ? compare : undefined;
  bridge.setState(state);
  fillCompareSelect();
  for (const r of [run, state.heatmapCompare]) {
    if (!r || received.has(r)) continue;
    const embedded = embeddedHeatmaps.get(r);
    if (embedded) received.set(r, embedded);
    else bridge.request({ type: 'heatmap-requested', run: r });
  }
  showChosenHeatmap();
}

function showChosenHeatmap(): void {
  const a = state.heatmapRun && received.get(state.heatmapRun);
  if (!a) return;
  if (!state.heatmapCompare) return showHeatmap(a, false);
  const b = received.get(state.heatmapCompare);
  if (b) showHeatmap(diffHeatmaps(a, b), true);
}

function fillCompareSelect(): void {
  const runs = (data?.runs ?? []).map((s) => s.run).filter((r) => r !== state.heatmapRun);
  heatCompare.replaceChildren(el('option', { value: '' }, l10n.t('compare with…')), ...runs.map((r) => el('option', { value: r }, l10n.t('vs {0}', r))));
  heatCompare.value = state.heatmapCompare ?? '';
}

function renderKey(p: Palette): void {
  heatKey.replaceChildren();
  const a = state.heatmapRun ?? l10n.t('first');
  const b = state.heatmapCompare ?? l10n.t('second');
  const entries: (readonly [string, string])[] = comparing
    ? [
        [l10n.t('both pass'), p.passed],
        [l10n.t('only {0}', a), p.series[0]],
        [l10n.t('only {0}', b), p.series[1] ?? p.failed],
        [l10n.t('neither'), p.missing],
      ]
    : [
        [outcomeText('passed'), p.passed],
        [outcomeText('failed'), p.failed],
        [outcomeText('error'), p.error],
        [outcomeText('missing'), p.missing],
      ];
  for (const [name, colour] of entries) {
    const swatch = el('canvas', { class: 'swatch', width: '10', height: '10' });
    const ctx = swatch.getContext('2d');
    if (ctx) {
      ctx.fillStyle = opaqueColour(colour);
      ctx.fillRect(0, 0, 10, 10);
    }
    heatKey.append(swatch, el('span', {}, name));
  }
  const bar = el('canvas', { class: 'swatch', width: '10', height: '10' });
  const bctx = bar.getContext('2d');
  if (bctx) {
    bctx.fillStyle = opaqueColour(p.failed);
    bctx.fillRect(0, 0, 10, 10);
    bctx.fillStyle = p.foreground;
    bctx.fillRect(0, 0, 3, 10);
  }
  if (!comparing) heatKey.append(bar, el('span', {}, l10n.t('regressed here')));
}

function showHeatmap(h: Heatmap, diff: boolean): void {
  heatmap = h;
  comparing = diff;
  const p = palette();
  renderKey(p);
  // A comparison's codes: 1 both pass, 2 only the first, 3 only the second, 0 neither.
  const colours = diff ? { ...p, failed: p.series[0], error: p.series[1] ?? p.failed } : { ...p };
  const named = h.tests.length <= 40;
  heatmapLayoutNow = drawHeatmap(heatCanvas, h, colours, Math.max(200, heatBox.clientWidth - 8 - (named ? NAMES_WIDTH : 0)));
  const l = heatmapLayoutNow;
  const readable = named && l.testsPerRow === 1 && l.rowHeight >= 12;
  heatNames.hidden = !readable;
  heatNames.replaceChildren(
    ...(readable
      ? l.order.map((t) => {
          const name = el('div', { title: h.tests[t] }, shortTestName(h.tests[t]));
          name.style.height = `${l.rowHeight}px`;
          name.style.lineHeight = `${l.rowHeight}px`;
          return name;
        })
      : []),
  );
  heatNames.style.paddingTop = `${heatColumns.offsetHeight}px`;
  // Column labels (iteration numbers) in the DOM, sized to the canvas cells.
  const every = Math.ceil(24 / l.cellWidth);
  heatColumns.replaceChildren(
    ...h.columns.map(({ iteration: it }, i) => {
      const label = el('span', {}, i % every === 0 ? (it === 0 ? l10n.t('base') : String(it)) : '');
      label.style.width = `${l.cellWidth}px`;
      return label;
    }),
  );
  const perRow = l.testsPerRow > 1 ? l10n.t(' ({0} tests per row, worst shown)', l.testsPerRow) : '';
  const regressions = h.regressions.reduce((n, r) => n + r.tests.length, 0);
  heatInfo.textContent = diff
    ? l10n.t(
        '{0} tests the target passes × the {1} iterations both runs recorded: {2}{3}. The runs differ on {4} tests; those come first. Hover a cell for its test; click it to open the test at that iteration.',
        h.tests.length,
        h.columns.length,
        h.run,
        perRow,
        differingTests(h),
      )
    : bridge.standalone
      ? l10n.t(
          '{0} tests the target passes × {1} pytest runs of {2}{3}. {4} regressions; tests that regressed come first, then those that changed. Hover a cell for its test.',
          h.tests.length,
          h.columns.length,
          h.run,
          perRow,
          regressions,
        )
      : l10n.t(
          '{0} tests the target passes × {1} pytest runs of {2}{3}. {4} regressions; tests that regressed come first, then those that changed. Hover a cell for its test; click it to open the test at that iteration.',
          h.tests.length,
          h.columns.length,
          h.run,
          perRow,
          regressions,
        );
}

/** The cell under a mouse event, in canvas pixels. */
function heatHitAt(e: MouseEvent) {
  if (!heatmap || !heatmapLayoutNow) return undefined;
  const r = heatCanvas.getBoundingClientRect();
  return heatmapHit(heatmap, heatmapLayoutNow, ((e.clientX - r.left) * heatCanvas.width) / r.width, ((e.clientY - r.top) * heatCanvas.height) / r.height);
}

heatCanvas.addEventListener('mousemove', (e) => {
  const hit = heatHitAt(e);
  if (!hit) {
    heatTip.hidden = true;
    return;
  }
  const status = comparing
    ? diffOutcomeText(DIFF_CODES[hit.status] ?? '0', state.heatmapRun ?? l10n.t('the first'), state.heatmapCompare ?? l10n.t('the second'))
    : outcomeText(hit.status);
  const at = hit.iteration === 0 ? l10n.t('base') : l10n.t('iteration {0}', hit.iteration);
  heatTip.replaceChildren(
    el('div', { class: 'heat-tip-status' }, `${at}: ${status}`),
    ...hit.tests.slice(0, 5).map((t) => el('div', { class: 'heat-tip-test' }, t)),
    ...(hit.tests.length > 5 ? [el('div', { class: 'heat-tip-more' }, l10n.t('… and {0} more', hit.tests.length - 5))] : []),
    ...(bridge.standalone ? [] : [el('div', { class: 'heat-tip-more' }, l10n.t('Click to open the test at this iteration.'))]),
  );
  heatTip.hidden = false;
  const box = heatBox.getBoundingClientRect();
  heatTip.style.left = `${Math.min(e.clientX - box.left + heatBox.scrollLeft + 14, heatBox.scrollWidth - heatTip.offsetWidth - 4)}px`;
  heatTip.style.top = `${e.clientY - box.top + heatBox.scrollTop + 14}px`;
});
heatCanvas.addEventListener('mouseleave', () => {
  heatTip.hidden = true;
});
heatCanvas.addEventListener('click', (e) => {
  const hit = heatHitAt(e);
  const run = comparing ? undefined : state.heatmapRun;
  if (!hit || !run || bridge.standalone) return;
  bridge.post({ type: 'test-clicked', run, iteration: hit.iteration, nodeid: hit.tests[0] });
});

const NAMES_WIDTH = 220;

/** A difference cell's code, from the status name heatmapHit gives it. */
const DIFF_CODES: Readonly<Record<string, string>> = { missing: '0', passed: '1', failed: '2', error: '3' };

/** A node id without its folders, for the narrow names column (the whole id is in the title). */
function shortTestName(nodeid: string): string {
  const [file, ...rest] = nodeid.split('::');
  return [file.split('/').pop() ?? file, ...rest].join('::');
}

function renderAll(d: ChartData): void {
  data = d;
  // New data (a pytest run, or the runs changed): heatmaps are asked for again, and answers to
  // the old requests (about the old data) are dropped.
  received.clear();
  bridge.forget('heatmap-requested');
  empty.hidden = d.runs.length > 0;
  // Runs the host could not read (e.g. a corrupt iteration.jsonl line) are named, not silently dropped.
  skippedNote.textContent = d.skipped.map((s) => `Run ${s.run} is not shown: ${s.reason}`).join(' ');
  skippedNote.hidden = d.skipped.length === 0;
  chart.render(d);
  renderRunsTable(table, d, state.gamma, palette());
  const runs = d.runs.map((s) => s.run);
  heatSelect.replaceChildren(...runs.map((r) => el('option', { value: r }, r)));
  const chosen = state.heatmapRun && runs.includes(state.heatmapRun) ? state.heatmapRun : runs[0];
  if (chosen) {
    heatSelect.value = chosen;
    chooseHeatmapRun(chosen);
  }
}

function redrawForTheme(): void {
  const p = palette();
  chart.setPalette(p);
  sequenceView.setPalette(p);
  // The table's swatches are the lines' colours.
  if (data) renderRunsTable(table, data, state.gamma, p);
  renderKey(p);
  if (heatmap) showHeatmap(heatmap, comparing);
}

function onHostMessage(msg: HostMessage): void {
  switch (msg.type) {
    case 'init':
      if (saved?.gamma === undefined) state.gamma = msg.gamma;
      setGamma(state.gamma, true);
      renderAll(msg.data);
      break;
    case 'update':
      renderAll(msg.data);
      break;
    case 'heatmap':
      received.set(msg.heatmap.run, msg.heatmap);
      if (msg.heatmap.run === state.heatmapRun || msg.heatmap.run === state.heatmapCompare) showChosenHeatmap();
      break;
    case 'sequence':
      sequenceView.render(msg.sequence);
      break;
    case 'theme-changed':
      redrawForTheme();
      break;
    case 'reveal-ack':
      status.textContent = msg.ok ? '' : (msg.message ?? l10n.t('Could not open iteration {0} of {1}.', msg.iteration, msg.run));
      break;
    case 'export-done':
      status.textContent = msg.ok ? l10n.t('Exported to {0}', msg.folder ?? '') : (msg.message ?? '');
      break;
  }
}

renderKey(palette());
setGamma(state.gamma, true);
if (bridge.standalone) {
  const payload = readReportPayload();
  if (payload) {
    title.textContent = payload.title;
    for (const h of payload.heatmaps) embeddedHeatmaps.set(h.run, h);
    setGamma(payload.gamma, true);
    renderAll(payload.data);
  }
} else {
  bridge.onMessage(onHostMessage);
  // VS Code marks the theme on <body> (vscode-light / vscode-dark / vscode-high-contrast):
  // re-read the variables and redraw whenever that class changes.
  new MutationObserver(() => redrawForTheme()).observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-id'] });
  bridge.post({ type: 'ready' });
}
