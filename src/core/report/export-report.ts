// Export Report: one self-contained HTML file (the bundled chart script and CSS inlined, the
// data as JSON) that renders offline, each try's transcript as a page beside it (linked from the
// report), plus the runs' metrics as CSV and JSON. Written by the
// extension's Export Report and by `sweci report`.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadChartData, loadHeatmap, type ChartData, type HeatmapData } from '../scoring/load-chart-data';
import { evoScore } from '../metrics/evo-score';
import type { ScoringRules } from '../metrics/scored-line';
import { reportHtml, transcriptPageHtml, type TranscriptLink } from './report-html';
import { listTries, loadTranscript } from '../inspect/transcript-tries';
import type { TaskFolder } from '../workspace/task-folder';

export interface ExportResult {
  folder: string;
  html: string;
  csv: string;
  json: string;
  /** One page per try with a transcript: transcripts/<run>/<iteration>-<role>-<try>.html. */
  transcripts: string[];
}

/**
 * Writes each try's transcript as a page of its own, beside the report (a try can hold hundreds
 * of calls: the report stays small). Tries still in progress are left out: they are not done.
 */
async function writeTranscriptPages(opts: {
  task: TaskFolder;
  folder: string;
  extensionRoot: string;
  runs: string[];
  title: string;
}): Promise<TranscriptLink[]> {
  const [script, css] = await Promise.all([
    fs.readFile(path.join(opts.extensionRoot, 'dist', 'transcript.js'), 'utf8').catch(() => undefined),
    fs.readFile(path.join(opts.extensionRoot, 'media', 'transcript.css'), 'utf8').catch(() => undefined),
  ]);
  if (script === undefined || css === undefined) return [];
  const bare = script.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
  const links: TranscriptLink[] = [];
  for (const run of opts.runs) {
    for (const at of (await listTries(opts.task, run)).filter((t) => !t.pending)) {
      const transcript = await loadTranscript(opts.task, at).catch(() => undefined);
      if (!transcript) continue;
      const href = `transcripts/${run}/${at.iteration}-${at.role}-${at.attempt}.html`;
      const file = path.join(opts.folder, ...href.split('/'));
      await fs.mkdir(path.dirname(file), { recursive: true });
      const title = `${run} #${at.iteration} ${at.role} try ${at.attempt} · ${opts.title}`;
      await fs.writeFile(file, transcriptPageHtml({ title, script: bare, css, payload: { transcript, title, back: '../../report.html' } }));
      links.push({ run, iteration: at.iteration, role: at.role, attempt: at.attempt, calls: transcript.calls.length, href });
    }
  }
  return links;
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
  task: TaskFolder;
  folder: string;
  extensionRoot: string;
  gamma: number;
  title: string;
  /** sweci.integrity's scoring rules, as the chart applies them. */
  scoring?: ScoringRules;
}): Promise<ExportResult> {
  const data = await loadChartData(opts.task, { gamma: opts.gamma, ...(opts.scoring ? { scoring: opts.scoring } : {}) });
  const heatmaps: HeatmapData[] = [];
  for (const s of data.runs) heatmaps.push(await loadHeatmap(opts.task, s.run));
  const [script, css] = await Promise.all([
    fs.readFile(path.join(opts.extensionRoot, 'dist', 'webview.js'), 'utf8'),
    fs.readFile(path.join(opts.extensionRoot, 'media', 'chart.css'), 'utf8'),
  ]);
  // The bundle's source-map comment would point at a file the report does not carry.
  const bare = script.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
  await fs.mkdir(opts.folder, { recursive: true });
  const transcripts = await writeTranscriptPages({ ...opts, runs: data.runs.map((s) => s.run) });
  const out: ExportResult = {
    folder: opts.folder,
    html: path.join(opts.folder, 'report.html'),
    csv: path.join(opts.folder, 'metrics.csv'),
    json: path.join(opts.folder, 'metrics.json'),
    transcripts: transcripts.map((l) => path.join(opts.folder, ...l.href.split('/'))),
  };
  const rows = metricsRows(data, opts.gamma);
  await fs.writeFile(
    out.html,
    reportHtml({ title: opts.title, script: bare, css, payload: { data, gamma: opts.gamma, heatmaps, title: opts.title }, transcripts }),
  );
  await fs.writeFile(out.csv, metricsCsv(rows));
  await fs.writeFile(out.json, JSON.stringify({ exported: new Date().toISOString(), gamma: opts.gamma, runs: rows, chart: data }, null, 2) + '\n');
  return out;
}
