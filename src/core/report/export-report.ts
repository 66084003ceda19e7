// Export Report: one self-contained HTML file (the bundled chart script and CSS inlined, the
// data as JSON) that renders offline, plus the runs' metrics as CSV and JSON. Written by the
// extension's Export Report and by `sweci report`.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadChartData, loadHeatmap, type ChartData, type HeatmapData } from '../scoring/load-chart-data';
import { evoScore } from '../metrics/evo-score';
import { taskLayout } from '../workspace/layout';
import type { ScoringRules } from '../metrics/scored-line';
import { reportHtml } from './report-html';

export interface ExportResult {
  folder: string;
  html: string;
  csv: string;
  json: string;
}

export function defaultExportFolder(taskDir: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-').replace(/Z$/, '');
  return path.join(taskLayout(taskDir).sweciDir, 'reports', `export-${stamp}`);
}

interface MetricsExportRow {
  run: string;
  kind: string;
  label: string;
  gamma: number;
  evoscore_gamma: number | null;
  evoscore_1: number | null;
  solved: boolean;
  zero_regression: boolean;
  regressions: number;
  final_a: number | null;
  iterations: number;
  tokens_in: number;
  tokens_out: number;
  time_sec: number;
  /** The flags the scores rest on, space-separated ('' when none). */
  score_flags: string;
}

export function metricsRows(data: ChartData, gamma: number): MetricsExportRow[] {
  return data.runs.map(({ run, kind, label, evoA, metrics: m }) => ({
    run,
    kind,
    label,
    gamma,
    evoscore_gamma: evoA.length ? round(evoScore(evoA, gamma)) : null,
    evoscore_1: m.evoScoreReference === null ? null : round(m.evoScoreReference),
    solved: m.solved,
    zero_regression: m.zeroRegression,
    regressions: m.regressions,
    final_a: m.finalA === null ? null : round(m.finalA),
    iterations: m.iterations,
    tokens_in: m.tokensIn,
    tokens_out: m.tokensOut,
    time_sec: round(m.timeSec),
    score_flags: m.scoreFlags.join(' '),
  }));
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function csvCell(v: MetricsExportRow[keyof MetricsExportRow]): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function metricsCsv(rows: MetricsExportRow[]): string {
  const head: (keyof MetricsExportRow)[] = [
    'run',
    'kind',
    'label',
    'gamma',
    'evoscore_gamma',
    'evoscore_1',
    'solved',
    'zero_regression',
    'regressions',
    'final_a',
    'iterations',
    'tokens_in',
    'tokens_out',
    'time_sec',
    'score_flags',
  ];
  return [head.join(','), ...rows.map((r) => head.map((k) => csvCell(r[k])).join(','))].join('\n') + '\n';
}

export async function writeReport(opts: {
  taskDir: string;
  folder: string;
  extensionRoot: string;
  gamma: number;
  title: string;
  /** sweci.integrity's scoring rules, as the chart applies them. */
  scoring?: ScoringRules;
}): Promise<ExportResult> {
  const data = await loadChartData(opts.taskDir, { gamma: opts.gamma, ...(opts.scoring ? { scoring: opts.scoring } : {}) });
  const heatmaps: HeatmapData[] = [];
  for (const s of data.runs) heatmaps.push(await loadHeatmap(opts.taskDir, s.run));
  const [script, css] = await Promise.all([
    fs.readFile(path.join(opts.extensionRoot, 'dist', 'webview.js'), 'utf8'),
    fs.readFile(path.join(opts.extensionRoot, 'media', 'chart.css'), 'utf8'),
  ]);
  // The bundle's source-map comment would point at a file the report does not carry.
  const bare = script.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
  await fs.mkdir(opts.folder, { recursive: true });
  const out: ExportResult = {
    folder: opts.folder,
    html: path.join(opts.folder, 'report.html'),
    csv: path.join(opts.folder, 'metrics.csv'),
    json: path.join(opts.folder, 'metrics.json'),
  };
  const rows = metricsRows(data, opts.gamma);
  await fs.writeFile(out.html, reportHtml({ title: opts.title, script: bare, css, payload: { data, gamma: opts.gamma, heatmaps, title: opts.title } }));
  await fs.writeFile(out.csv, metricsCsv(rows));
  await fs.writeFile(out.json, JSON.stringify({ exported: new Date().toISOString(), gamma: opts.gamma, runs: rows, chart: data }, null, 2) + '\n');
  return out;
}
