// The iteration view's test report: the archived report.json as a table, one row per test with
// its outcome, duration and the first lines of its failure, failures first. The host renders it
// (recorded text goes through html`…`, which escapes it); the view's script only filters the
// rows it was given. The raw report stays one click away.
import type { IterationDetails } from '../../core/inspect/iteration-details';
import type { IterationReport, ReportRow } from '../../core/inspect/report-rows';
import { OUTCOME_ORDER, outcomeCounts } from '../../core/inspect/report-rows';
import { html, type SafeHtml } from '../../core/util/html';
import type { WebviewContent } from '../webview/webview-page';
import { button, iterationTitle, lines } from './iteration-html';

/** Rows past this are left to the raw report (failures come first, so they are all shown). */
export const REPORT_ROW_LIMIT = 5000;

export function formatTestDuration(sec: number | undefined): string {
  if (sec === undefined) return '–';
  if (sec < 0.001) return '<1 ms';
  if (sec < 1) return `${Math.round(sec * 1000)} ms`;
  return sec < 60 ? `${sec.toFixed(2)} s` : `${Math.floor(sec / 60)} min ${Math.round(sec % 60)} s`;
}

/** A node id that may break after each '/' and '::' rather than inside a name. */
function breakable(nodeid: string): SafeHtml {
  return html`${nodeid.split(/(?<=\/|::)/).map((part, i) => (i ? html`<wbr>${part}` : part))}`;
}

function row(r: ReportRow): SafeHtml {
  return html`<tr data-outcome="${r.outcome}"><td><span class="outcome ${r.outcome}">${r.outcome}</span></td><td class="nodeid"><a href="#" data-action="open-test" data-arg="${r.nodeid}">${breakable(r.nodeid)}</a></td><td class="num">${formatTestDuration(r.durationSec)}</td><td>${r.message ? html`<pre class="message">${r.message}</pre>` : ''}</td></tr>`;
}

function table(rows: ReportRow[]): SafeHtml {
  const counts = outcomeCounts(rows);
  const failing = rows.filter((r) => r.outcome === 'failed' || r.outcome === 'error').length;
  const total = rows.reduce((s, r) => s + (r.durationSec ?? 0), 0);
  const timed = rows.some((r) => r.durationSec !== undefined);
  const summary = html`<p class="report-summary">${counts.map(([o, n], i) => html`${i ? ' · ' : ''}<span class="outcome ${o}">${n} ${o}</span>`)}${timed ? html` <span class="muted">· ${formatTestDuration(total)} in tests</span>` : ''}</p>`;
  const options = [
    html`<option value="all">all outcomes</option>`,
    html`<option value="not-passed">not passed</option>`,
    ...OUTCOME_ORDER.filter((o) => counts.some(([c]) => c === o)).map((o) => html`<option value="${o}">${o}</option>`),
  ];
  const shown = rows.slice(0, REPORT_ROW_LIMIT);
  const more = rows.length > shown.length ? html`<p class="muted">… ${rows.length - shown.length} more tests (all passed): see the raw report.</p>` : '';
  return html`${summary}<div class="report-filter"><input id="report-filter" type="search" placeholder="Filter by test or message" aria-label="Filter the tests by name or message"><select id="report-outcome" aria-label="Show the tests with this outcome">${options}</select><span id="report-count" class="muted" role="status">${shown.length} of ${shown.length} tests${failing ? html`, ${failing} failing` : ''}</span></div><table class="report"><thead><tr><th>Outcome</th><th>Test</th><th>Duration</th><th>Message</th></tr></thead><tbody>${shown.map(row)}</tbody></table>${more}`;
}

export function reportBody(d: IterationDetails, report: IterationReport): SafeHtml {
  const pos = d.iterations.indexOf(d.iteration);
  const last = d.iterations[d.iterations.length - 1];
  const nav = [
    button('step', '‹ Previous', { arg: -1, disabled: pos <= 0, title: 'The previous iteration’s test report' }),
    html`<h1>${d.run} <span class="muted">${d.iteration === 0 ? 'base' : `iteration ${d.iteration} of ${last}`} · test report</span></h1>`,
    button('step', 'Next ›', { arg: 1, disabled: pos < 0 || pos >= d.iterations.length - 1, title: 'The next iteration’s test report' }),
  ];
  const actions = [
    button('close-test-report', 'Back to Iteration', { title: 'The iteration’s scores, tests, requirement.xml and roles' }),
    button('open-raw-report', 'Open Raw Report', { disabled: !report.raw, title: 'report.json as it is archived' }),
  ];
  return lines([
    html`<header><nav>${nav}</nav><div class="actions">${actions}</div></header>`,
    report.rows ? table(report.rows) : html`<p class="muted">${report.missing ?? 'No test report.'}</p>`,
  ]);
}

export function reportContent(d: IterationDetails, report: IterationReport): WebviewContent {
  return { title: `${iterationTitle(d)} test report`, body: reportBody(d, report) };
}
