// `sweci report`: an experiment as a folder of self-contained HTML. index.html holds the
// summary tables (the numbers of `sweci summarize`), each task name opening that task's own
// report, the same file the extension's Export Report writes (chart, heatmap, metrics).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { experimentTaskIds } from '../batch/experiment';
import { summarizeExperiment, type ExperimentSummary } from '../batch/experiment-summary';
import { formatSummary } from '../batch/summary-format';
import { writeReport } from './export-report';
import { RUN_FLAG_LABELS, type RunFlag } from '../metrics/run-flags';
import type { ScoringRules } from '../metrics/scored-line';
import { escapeAttr, escapeText } from './report-html';

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
      taskDir: path.join(opts.experimentDir, task),
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

const fixed = (v: number | null, digits = 4) => (v === null ? '–' : v.toFixed(digits));

/** A flagged run's scores are in doubt: each flag, with its meaning on hover. */
function flagsCell(flags: readonly RunFlag[]): string {
  return flags.length ? flags.map((f) => `<span class="flag" title="${escapeAttr(RUN_FLAG_LABELS[f])}">${escapeText(f)}</span>`).join(' ') : '–';
}

function indexHtml(s: ExperimentSummary, withReport: Set<string>): string {
  const link = (task: string) =>
    withReport.has(task) ? `<a href="${escapeAttr(`tasks/${encodeURIComponent(task)}/report.html`)}">${escapeText(task)}</a>` : escapeText(task);
  const gammaHeads = s.gammas
    .slice(1)
    .map((g) => `<th>EvoScore(γ=${g})</th>`)
    .join('');
  const groups = s.groups
    .map((g) => {
      const rows = g.rows
        .map(
          (r) =>
            `<tr><td>${link(r.task)}</td><td>${fixed(r.metrics.evoScoreReference)}</td>${r.evo
              .slice(1)
              .map((v) => `<td>${fixed(v)}</td>`)
              .join(
                '',
              )}<td>${r.metrics.solved ? 1 : 0}</td><td>${r.metrics.zeroRegression ? 1 : 0}</td><td>${r.metrics.regressions}</td><td>${r.metrics.iterations}</td><td>${r.metrics.tokensIn}</td><td>${r.metrics.tokensOut}</td><td>${r.metrics.timeSec.toFixed(1)}</td><td>${flagsCell(r.flags)}</td></tr>`,
        )
        .join('\n');
      const a = g.average;
      const avg = `<tr class="average"><td>average (${a.count})</td><td>${fixed(a.evoScoreReference)}</td>${g.averageEvo
        .slice(1)
        .map((v) => `<td>${fixed(v)}</td>`)
        .join(
          '',
        )}<td>${fixed(a.solved)}</td><td>${fixed(a.zeroRegression)}</td><td>${a.regressions.toFixed(2)}</td><td>${a.iterations.toFixed(2)}</td><td>${a.tokensIn.toFixed(0)}</td><td>${a.tokensOut.toFixed(0)}</td><td>${a.timeSec.toFixed(1)}</td><td>${g.rows.filter((r) => r.flags.length > 0).length} flagged</td></tr>`;
      const note = g.run === s.run ? ' (this experiment)' : g.kind === 'human-history' ? ' (the upstream developers)' : '';
      return `<h2>Run ${escapeText(g.run)}${note}</h2>
<table>
<thead><tr><th>task</th><th>EvoScore(γ=1)</th>${gammaHeads}<th>solved</th><th>zero regression</th><th>regressions</th><th>iterations</th><th>tokens in</th><th>tokens out</th><th>time (s)</th><th>flags</th></tr></thead>
<tbody>
${rows}
${avg}
</tbody>
</table>`;
    })
    .join('\n');
  const unscored = s.unscored.length
    ? `<h2>Not scored</h2><ul>${s.unscored.map((u) => `<li>${link(u.task)}: ${escapeText(`${u.state ? `${u.state}: ` : ''}${u.reason}`)}</li>`).join('')}</ul>`
    : '';
  const csp = "default-src 'none'; style-src 'unsafe-inline'";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeText(path.basename(s.experiment))} · SWE-CI</title>
<style>
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 2rem; }
table { border-collapse: collapse; margin-bottom: 2rem; }
th, td { padding: 0.3rem 0.7rem; border-bottom: 1px solid color-mix(in srgb, currentColor 20%, transparent); text-align: right; }
th:first-child, td:first-child { text-align: left; white-space: nowrap; }
tr.average td { font-weight: 600; }
</style>
</head>
<body>
<h1>${escapeText(path.basename(s.experiment))}</h1>
<p>N = ${s.maxEpoch ?? 'per task'} iterations. EvoScore(γ=1), solved and zero regression are the reference harness's; a task's name opens its chart.</p>
${groups || '<p>No task of this experiment has a run yet.</p>'}
${unscored}
</body>
</html>
`;
}
