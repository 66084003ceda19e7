// Export Report: one self-contained HTML file (the bundled chart script and CSS inlined, the
// data as JSON) that renders offline, each try's transcript as a page beside it (linked from the
// report), plus the runs' metrics as CSV and JSON. Written by the
// extension's Export Report (in the display language: it passes its bundle) and by `sweci report`.
// The numbers are the same in every language; the CSV and JSON are data, never translated.
import { promises as fs } from 'node:fs';
import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import { loadChartData, type ChartData, type HeatmapData } from '../scoring/load-chart-data';
import { loadHeatmap } from '../scoring/load-heatmap';
import { METRIC_COLUMN_LIST } from '../../shared/metrics/metric-columns';
import type { L10nBundle } from '../../shared/l10n-bundle';
import type { ScoringRules } from '../../shared/metrics/scored-line';
import { readPanelAssets } from './panel-assets';
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
  l10n?: L10nBundle;
}): Promise<TranscriptLink[]> {
  const assets = await readPanelAssets(opts.extensionRoot, 'transcript.js', 'transcript.css').catch(() => undefined);
  if (!assets) return [];
  const { script: bare, css } = assets;
  const links: TranscriptLink[] = [];
  for (const run of opts.runs) {
    for (const at of (await listTries(opts.task, run)).filter((t) => !t.pending)) {
      const transcript = await loadTranscript(opts.task, at).catch(() => undefined);
      if (!transcript) continue;
      const href = `transcripts/${run}/${at.iteration}-${at.role}-${at.try}.html`;
      const file = path.join(opts.folder, ...href.split('/'));
      await fs.mkdir(path.dirname(file), { recursive: true });
      const role = at.role === 'architect' ? l10n.t('architect') : l10n.t('programmer');
      const title = l10n.t('{0} #{1} {2} try {3} · {4}', run, at.iteration, role, at.try, opts.title);
      const page = transcriptPageHtml({
        title,
        script: bare,
        css,
        payload: { transcript, title, back: '../../report.html' },
        ...(opts.l10n ? { l10n: opts.l10n } : {}),
      });
      await fs.writeFile(file, page);
      links.push({ run, iteration: at.iteration, role: at.role, try: at.try, calls: transcript.calls.length, href });
    }
  }
  return links;
}

/** A value of metrics.csv/json: a number, a flag, a word; null when unknown. */
type ExportValue = string | number | boolean | null;

/** One run in metrics.csv/json: which run, then each metric column with an `export` entry (metric-columns.ts). */
export type MetricsExportRow = { run: string; kind: string; label: string } & Record<string, ExportValue>;

const EXPORT_COLUMNS = METRIC_COLUMN_LIST.flatMap((c) => (c.export ? [c.export] : []));
const EXPORT_HEAD = ['run', 'kind', 'label', ...EXPORT_COLUMNS.map((c) => c.key)];

export function metricsRows(data: ChartData, gamma: number): MetricsExportRow[] {
  return data.runs.map(({ run, kind, label, evoA, metrics: m }) => ({
    run,
    kind,
    label,
    ...Object.fromEntries(EXPORT_COLUMNS.map((c) => [c.key, c.value(m, { gamma, evoA })])),
  }));
}

function csvCell(v: ExportValue | undefined): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function metricsCsv(rows: MetricsExportRow[]): string {
  return [EXPORT_HEAD.join(','), ...rows.map((r) => EXPORT_HEAD.map((k) => csvCell(r[k])).join(','))].join('\n') + '\n';
}

export async function writeReport(opts: {
  task: TaskFolder;
  folder: string;
  extensionRoot: string;
  gamma: number;
  title: string;
  /** sweci.integrity's scoring rules, as the chart applies them. */
  scoring?: ScoringRules;
  /** The display language's translations, carried by each page (none: English). */
  l10n?: L10nBundle;
}): Promise<ExportResult> {
  const data = await loadChartData(opts.task, { gamma: opts.gamma, ...(opts.scoring ? { scoring: opts.scoring } : {}) });
  const heatmaps: HeatmapData[] = [];
  for (const s of data.runs) heatmaps.push(await loadHeatmap(opts.task, s.run));
  const { script: bare, css } = await readPanelAssets(opts.extensionRoot, 'webview.js', 'chart.css');
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
    reportHtml({
      title: opts.title,
      script: bare,
      css,
      payload: { data, gamma: opts.gamma, heatmaps, title: opts.title },
      transcripts,
      ...(opts.l10n ? { l10n: opts.l10n } : {}),
    }),
  );
  await fs.writeFile(out.csv, metricsCsv(rows));
  await fs.writeFile(out.json, JSON.stringify({ exported: new Date().toISOString(), gamma: opts.gamma, runs: rows, chart: data }, null, 2) + '\n');
  return out;
}
