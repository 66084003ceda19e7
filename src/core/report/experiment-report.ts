// `sweci report`: an experiment as a folder of self-contained HTML. index.html holds the
// summary tables (the numbers of `sweci summarize`), each task name opening that task's own
// report, the same file the extension's Export Report writes (chart, heatmap, metrics).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { experimentTaskIds } from '../batch/experiment';
import { taskFolder } from '../workspace/task-folder';
import { summarizeExperiment, type ExperimentSummary } from '../batch/experiment-summary';
import { averageCells, averageLabel, formatSummary, summaryCells, summaryHeader } from '../batch/summary-format';
import { writeReport } from './export-report';
import { runFlagLabel, flaggedNote, type RunFlag } from '../../shared/metrics/run-flags';
import type { ScoringRules } from '../../shared/metrics/scored-line';
import { html, htmlPage, rawHtml, type SafeHtml } from '../util/html';

export interface ExperimentReportOptions {
  experimentDir: string;
  folder: string;
  /** Where dist/webview.js and media/chart.css are (the extension's or the CLI's package). */
  assetRoot: string;
  /** γ of the chart's metrics table in each task's report. */
  gamma: number;
  /** More γ for the summary tables. */
  gammas?: number[];
  maxEpoch?: number;
  scoring?: ScoringRules;
  onProgress?: (message: string) => void;
}

export interface ExperimentReportResult {
  index: string;
  tasks: { task: string; html: string }[];
}

export async function writeExperimentReport(opts: ExperimentReportOptions): Promise<ExperimentReportResult> {
  const summary = await summarizeExperiment(opts.experimentDir, {
    gammas: opts.gammas ?? [],
    ...(opts.maxEpoch ? { maxEpoch: opts.maxEpoch } : {}),
    ...(opts.scoring ? { scoring: opts.scoring } : {}),
  });
  await fs.mkdir(opts.folder, { recursive: true });
  const tasks: ExperimentReportResult['tasks'] = [];
  for (const task of await experimentTaskIds(opts.experimentDir)) {
    opts.onProgress?.(`report of ${task}`);
    const out = await writeReport({
      task: taskFolder(path.join(opts.experimentDir, task)),
      folder: path.join(opts.folder, 'tasks', task),
      extensionRoot: opts.assetRoot,
      gamma: opts.gamma,
      title: `${task} · SWE-CI`,
      ...(opts.scoring ? { scoring: opts.scoring } : {}),
    });
    tasks.push({ task, html: out.html });
  }
  const index = path.join(opts.folder, 'index.html');
  await fs.writeFile(index, indexHtml(summary, new Set(tasks.map((t) => t.task))));
  await fs.writeFile(path.join(opts.folder, 'summary.md'), formatSummary(summary, 'markdown'));
  await fs.writeFile(path.join(opts.folder, 'summary.csv'), formatSummary(summary, 'csv'));
  await fs.writeFile(path.join(opts.folder, 'summary.json'), formatSummary(summary, 'json'));
  return { index, tasks };
}

/** A flagged run's scores are in doubt: each flag, with its meaning on hover. */
function flagsCell(flags: readonly RunFlag[]): SafeHtml | string {
  return flags.length
    ? joinHtml(
        flags.map((f) => html`<span class="flag" title="${runFlagLabel(f)}">${f}</span>`),
        ' ',
      )
    : '–';
}

function joinHtml(parts: SafeHtml[], separator: string): SafeHtml {
  return html`${parts.map((p, i) => (i ? [separator, p] : p))}`;
}

const STYLE = rawHtml(`<style>
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 2rem; }
table { border-collapse: collapse; margin-bottom: 2rem; }
th, td { padding: 0.3rem 0.7rem; border-bottom: 1px solid color-mix(in srgb, currentColor 20%, transparent); text-align: right; }
th:first-child, td:first-child { text-align: left; white-space: nowrap; }
tr.average td { font-weight: 600; }
</style>`);

function indexHtml(s: ExperimentSummary, withReport: Set<string>): string {
  const link = (task: string) => (withReport.has(task) ? html`<a href="${`tasks/${encodeURIComponent(task)}/report.html`}">${task}</a>` : task);
  // The numbers of `sweci summarize`, cell for cell (summary-format.ts), the task linked and the flags explained.
  const cells = (texts: readonly string[]) => texts.map((t) => html`<td>${t}</td>`);
  const groups = s.groups.map((g) => {
    const rows = g.rows.map(
      (r) => html`<tr><td>${link(r.task)}</td>${cells(summaryCells(r))}<td>${flagsCell(r.flags)}</td></tr>
`,
    );
    const a = g.average;
    const avg = html`<tr class="average"><td>${averageLabel(a)}</td>${cells(averageCells(g))}<td>${flaggedNote(a.flagged) || '0 flagged'}</td></tr>`;
    const note = g.run === s.run ? ' (this experiment)' : g.kind === 'human-history' ? ' (the upstream developers)' : '';
    return html`<h2>Run ${g.run}${note}</h2>
<table>
<thead><tr>${summaryHeader(s, true).map((h) => html`<th>${h}</th>`)}</tr></thead>
<tbody>
${rows}${avg}
</tbody>
</table>
`;
  });
  const unscored = s.unscored.length
    ? html`<h2>Not scored</h2><ul>${s.unscored.map((u) => html`<li>${link(u.task)}: ${`${u.state ? `${u.state}: ` : ''}${u.reason}`}</li>`)}</ul>`
    : '';
  const name = path.basename(s.experiment);
  return htmlPage({
    title: `${name} · SWE-CI`,
    csp: "default-src 'none'; style-src 'unsafe-inline'",
    head: STYLE,
    body: html`<h1>${name}</h1>
<p>N = ${s.maxEpoch ?? 'per task'} iterations. EvoScore(γ=1), solved and zero regression are the reference harness's; a task's name opens its chart.</p>
${groups.length ? groups : html`<p>No task of this experiment has a run yet.</p>`}
${unscored}`,
  });
}
