// The experiment summary as text: an aligned table for a terminal, Markdown for a report or a
// pull request, CSV for a spreadsheet, JSON for scripts. One set of columns for all of them (and
// for the experiment report's index): the metric columns with a `summary` entry.
import { stringify } from 'csv-stringify/sync';
import type { ExperimentSummary, SummaryGroup, SummaryRow } from './experiment-summary';
import { fixed, METRIC_COLUMN_LIST } from '../../shared/metrics/metric-columns';
import { RUN_FLAGS, runFlagLabel, flaggedNote, flaggedScore } from '../../shared/metrics/run-flags';
import type { RunMetricsAverage } from '../../shared/metrics/run-metrics';

export const SUMMARY_FORMATS = ['table', 'markdown', 'csv', 'json'] as const;
export type SummaryFormat = (typeof SUMMARY_FORMATS)[number];

/** The metric columns the summaries show (metric-columns.ts `summary`), in order. */
export const SUMMARY_COLUMNS = METRIC_COLUMN_LIST.flatMap((c) => (c.summary ? [{ ...c.summary, id: c.id, doubt: c.doubt }] : []));

/**
 * The table's columns: the task, each summary column (EvoScore at the other γ asked for after
 * the one marked `gammas`), then the run's flags. `report` takes the experiment report's headers.
 */
export function summaryHeader(s: ExperimentSummary, report = false): string[] {
  return [
    'task',
    ...SUMMARY_COLUMNS.flatMap((c) => [report ? c.reportHead : c.head, ...(c.gammas ? s.gammas.slice(1).map((g) => `EvoScore(γ=${g})`) : [])]),
    'flags',
  ];
}

/** "average (4)", or "average (4, 1 flagged)": every average says how many flagged runs it includes. */
export function averageLabel(a: RunMetricsAverage): string {
  return `average (${a.count}${a.flagged.runs ? `, ${a.flagged.runs} flagged` : ''})`;
}

/**
 * A row's metric cells (a score that rests on a flag names it beside the score and beside
 * solved, unless `numeric`: CSV keeps score cells numbers, the flags in their own column).
 */
export function summaryCells(r: SummaryRow, numeric = false): string[] {
  const m = r.metrics;
  return SUMMARY_COLUMNS.flatMap((c) => {
    const text = c.cell(m);
    return [numeric || !c.doubt?.(m) ? text : flaggedScore(text, m.scoreFlags), ...(c.gammas ? r.evo.slice(1).map((v) => fixed(v)) : [])];
  });
}

/** The average row's metric cells. */
export function averageCells(g: SummaryGroup, numeric = false): string[] {
  const a: Record<string, unknown> & RunMetricsAverage = g.average;
  return SUMMARY_COLUMNS.flatMap((c) => {
    const v = a[c.id];
    return [c.average(typeof v === 'number' ? v : null, a, numeric), ...(c.gammas ? g.averageEvo.slice(1).map((e) => fixed(e)) : [])];
  });
}

/** A table's rows; `numeric` (CSV) keeps score cells numbers, the flags in their own column. */
function rows(g: SummaryGroup, numeric = false): string[][] {
  const body = g.rows.map((r) => [r.task, ...summaryCells(r, numeric), r.flags.join(' ') || '–']);
  body.push([averageLabel(g.average), ...averageCells(g, numeric), flaggedNote(g.average.flagged) || '0 flagged']);
  return body;
}

function title(s: ExperimentSummary, g: SummaryGroup): string {
  const own = g.run === s.run ? ' (this experiment)' : g.kind === 'human-history' ? ' (the upstream developers)' : '';
  return `run ${g.run}${own} · N = ${s.maxEpoch ?? 'per task'}`;
}

function aligned(table: string[][]): string {
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => [...r[c]].length)));
  return table.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
}

function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function formatSummary(s: ExperimentSummary, format: SummaryFormat): string {
  if (format === 'json') return JSON.stringify(s, null, 2) + '\n';
  const out: string[] = [];
  if (format === 'csv') {
    const table = [['run', ...summaryHeader(s)]];
    for (const g of s.groups) for (const r of rows(g, true)) table.push([g.run, ...r]);
    return stringify(table);
  }
  for (const g of s.groups) {
    const table = [summaryHeader(s), ...rows(g)];
    if (format === 'markdown') {
      out.push(`### ${markdownCell(title(s, g))}`, '');
      out.push(`| ${table[0].map(markdownCell).join(' | ')} |`, `|${table[0].map((_, c) => (c === 0 ? ' --- ' : ' ---: ')).join('|')}|`);
      for (const r of table.slice(1)) out.push(`| ${r.map(markdownCell).join(' | ')} |`);
      out.push('');
    } else {
      out.push(title(s, g), aligned(table), '');
    }
  }
  const flagged = RUN_FLAGS.filter((f) => s.groups.some((g) => g.rows.some((r) => r.flags.includes(f))));
  if (flagged.length > 0) {
    out.push(`${format === 'markdown' ? '**Flags:** ' : 'flags: '}${flagged.map((f) => `${f} = ${runFlagLabel(f)}`).join('; ')}`, '');
  }
  if (s.groups.length === 0) out.push('No task of this experiment has a run yet.', '');
  // A run recorded past N (the developers' replay of more commits than N, say) is scored over its
  // first N: "iterations 10, solved 0" must say why.
  const n = s.maxEpoch;
  for (const g of n === undefined ? [] : s.groups) {
    const most = Math.max(0, ...g.rows.map((r) => r.metrics.iterations));
    if (n === undefined || most <= n) continue;
    const what = g.kind === 'human-history' ? 'developer commits' : 'iterations';
    out.push(
      `${format === 'markdown' ? '**Note:** ' : 'note: '}run ${g.run} recorded up to ${most} ${what} on a task, and is scored over the first N = ${n}: ` +
        `EvoScore, solved and zero_regression count those ${n} only, while iterations counts every one (--max-epoch ${most} scores them all).`,
      '',
    );
  }
  if (s.stopped.length > 0) {
    out.push(
      format === 'markdown'
        ? '**Stopped at a budget** (their scores count the iterations they ran):'
        : 'stopped at a budget (their scores count the iterations they ran):',
    );
    for (const u of s.stopped) out.push(`${format === 'markdown' ? '- ' : '  '}${u.task}: ${u.reason}`);
    out.push('');
  }
  if (s.unscored.length > 0) {
    out.push(format === 'markdown' ? '**Not scored:**' : 'not scored:');
    for (const u of s.unscored) out.push(`${format === 'markdown' ? '- ' : '  '}${u.task}: ${u.state ? `${u.state}: ` : ''}${u.reason}`);
    out.push('');
  }
  return out.join('\n');
}
