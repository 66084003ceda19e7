// The experiment summary as text: an aligned table for a terminal, Markdown for a report or a
// pull request, CSV for a spreadsheet, JSON for scripts. One set of columns for all of them.
import { stringify } from 'csv-stringify/sync';
import type { ExperimentSummary, SummaryGroup } from './experiment-summary';
import { RUN_FLAGS, RUN_FLAG_LABELS, flaggedNote, flaggedScore } from '../metrics/run-flags';
import type { RunMetricsAverage } from '../metrics/run-metrics';

export const SUMMARY_FORMATS = ['table', 'markdown', 'csv', 'json'] as const;
export type SummaryFormat = (typeof SUMMARY_FORMATS)[number];

const fixed = (v: number | null, digits = 4): string => (v === null ? '–' : v.toFixed(digits));

function header(s: ExperimentSummary): string[] {
  return [
    'task',
    'EvoScore(γ=1)',
    ...s.gammas.slice(1).map((g) => `EvoScore(γ=${g})`),
    'solved',
    'zero_regression',
    'regressions',
    'iterations',
    'tokens_in',
    'tokens_out',
    'time_s',
    'flags',
  ];
}

/** "average (4)", or "average (4, 1 flagged)": every average says how many flagged runs it includes. */
export function averageLabel(a: RunMetricsAverage): string {
  return `average (${a.count}${a.flagged.runs ? `, ${a.flagged.runs} flagged` : ''})`;
}

/** The average solved rate, and which of the solved runs are flagged: "0.7500 (3 solved, 1 flagged: inflated)". */
export function averageSolved(a: RunMetricsAverage): string {
  const note = flaggedNote(a.solvedFlagged);
  return note ? `${fixed(a.solved)} (${Math.round(a.solved * a.count)} solved, ${note})` : fixed(a.solved);
}

/** A table's rows; `numeric` (CSV) keeps score cells numbers, the flags in their own column. */
function rows(g: SummaryGroup, numeric = false): string[][] {
  // A score that rests on a flag names it beside the score and beside solved.
  const mark = (text: string, r: SummaryGroup['rows'][number]) => (numeric ? text : flaggedScore(text, r.metrics.scoreFlags));
  const body = g.rows.map((r) => [
    r.task,
    mark(fixed(r.metrics.evoScoreReference), r),
    ...r.evo.slice(1).map((v) => fixed(v)),
    r.metrics.solved ? mark('1', r) : '0',
    r.metrics.zeroRegression ? '1' : '0',
    String(r.metrics.regressions),
    String(r.metrics.iterations),
    String(r.metrics.tokensIn),
    String(r.metrics.tokensOut),
    r.metrics.timeSec.toFixed(1),
    r.flags.join(' ') || '–',
  ]);
  const a = g.average;
  body.push([
    averageLabel(a),
    fixed(a.evoScoreReference),
    ...g.averageEvo.slice(1).map((v) => fixed(v)),
    numeric ? fixed(a.solved) : averageSolved(a),
    fixed(a.zeroRegression),
    a.regressions.toFixed(2),
    a.iterations.toFixed(2),
    a.tokensIn.toFixed(0),
    a.tokensOut.toFixed(0),
    a.timeSec.toFixed(1),
    flaggedNote(a.flagged) || '0 flagged',
  ]);
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
    const table = [['run', ...header(s)]];
    for (const g of s.groups) for (const r of rows(g, true)) table.push([g.run, ...r]);
    return stringify(table);
  }
  for (const g of s.groups) {
    const table = [header(s), ...rows(g)];
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
    out.push(`${format === 'markdown' ? '**Flags:** ' : 'flags: '}${flagged.map((f) => `${f} = ${RUN_FLAG_LABELS[f]}`).join('; ')}`, '');
  }
  if (s.groups.length === 0) out.push('No task of this experiment has a run yet.', '');
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
