// The leaderboard record as text: an aligned table for a terminal, Markdown for a report or a
// pull request, CSV for a spreadsheet (one row per entry, numbers bare), JSON for scripts (the
// record itself, as built: leaderboard-cli.test holds the printed JSON to leaderboardRecordSchema, so
// the schema is not run again on every print). Pure: no node imports.
import { stringify } from 'csv-stringify/sync';
import { formatDuration, formatTokens } from '../../shared/metrics/metric-format';
import type { LeaderboardEntry, LeaderboardRecord } from '../../shared/leaderboard-record';

export const LEADERBOARD_FORMATS = ['table', 'markdown', 'csv', 'json'] as const;
export type LeaderboardFormat = (typeof LEADERBOARD_FORMATS)[number];

/** The terminal width the table format keeps to unless asked for every column (--wide). */
const TABLE_WIDTH = 100;
/** The table's columns when it must fit TABLE_WIDTH: by header, in the wide table's order. */
const NARROW_COLUMNS = ['group', 'rank', 'entry', 'EvoScore(γ=1)', '95% CI', 'solved', 'zero_regression', 'cost per task'];
/** Shorter headers for the narrow table (the notes name them in full). */
const NARROW_HEADERS: Record<string, string> = { zero_regression: 'zero reg.', 'cost per task': 'cost/task' };

const f4 = (v: number) => v.toFixed(4);
const ci = ([lo, hi]: readonly [number, number]) => `[${f4(lo)}, ${f4(hi)}]`;
/** The entry's name as the table shows it: ⚑ marks an entry with flagged tasks. */
const shown = (e: LeaderboardEntry) => (e.flaggedTasks > 0 ? `${e.label} ⚑` : e.label);
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

function header(r: LeaderboardRecord): string[] {
  const others = r.gammas.filter((g) => g !== '1');
  return [
    'group',
    'rank',
    'entry',
    'EvoScore(γ=1)',
    '95% CI',
    ...others.map((g) => `EvoScore(γ=${g})`),
    `rank move (γ ${lowestToHighest(r)})`,
    'solved',
    '95% CI',
    'zero_regression',
    '95% CI',
    'iterations',
    'tokens in/out/cached per task',
    'cost per task',
    'wall per task',
    'flagged',
    'tasks',
    'missing',
    'cost frontier',
  ];
}

function lowestToHighest(r: LeaderboardRecord): string {
  const sorted = [...r.gammas].sort((a, b) => Number(a) - Number(b));
  return `${sorted[0]}→${sorted[sorted.length - 1]}`;
}

function cells(r: LeaderboardRecord, e: LeaderboardEntry): string[] {
  const rank = r.ranks['1'].find((x) => x.label === e.label)!.rank;
  const t = e.tokensPerTask;
  return [
    String(e.group),
    String(rank),
    shown(e),
    f4(e.evoScore['1']),
    ci(e.evoScoreCI95),
    ...r.gammas.filter((g) => g !== '1').map((g) => f4(e.evoScore[g])),
    signed(e.rankMove),
    f4(e.solvedRate),
    ci(e.solvedCI95),
    f4(e.zeroRegressionRate),
    ci(e.zeroRegressionCI95),
    e.meanIterations.toFixed(2),
    t.source === 'none' ? '–' : `${formatTokens(t.input)}/${formatTokens(t.output)}/${formatTokens(t.cached)}${t.source === 'wire' ? '' : ` (${t.source})`}`,
    e.costPerTask === null ? 'unknown' : `$${e.costPerTask.toFixed(4)}`,
    formatDuration(e.wallSecondsPerTask),
    String(e.flaggedTasks),
    String(e.tasks),
    e.missing.length ? e.missing.join(' ') : '–',
    e.onCostFrontier ? 'yes' : 'no',
  ];
}

function pairLines(r: LeaderboardRecord): string[][] {
  return [
    ['a', 'b', 'mean difference EvoScore(γ=1)', '95% CI', 'distinguishable'],
    ...r.pairs.map((p) => [p.a, p.b, (p.meanDiff >= 0 ? '+' : '') + f4(p.meanDiff), ci(p.ci95), p.distinguishable ? 'yes' : 'no']),
  ];
}

/** Columns `left` wide and fewer are padded on the right (names), the rest on the left (numbers). */
function aligned(table: string[][], left = 2): string {
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => [...row[c]].length)));
  return table.map((row) => row.map((cell, c) => (c <= left ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
}

/** `text` cut to `width` characters in its middle, keeping both ends (labels differ by their folder, at the end). */
function middleCut(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  const head = Math.ceil((width - 1) / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (width - 1 - head)).join('')}`;
}

/** `table` with the name columns (`names`) cut in their middle so that its aligned rows fit `width`, down to 12 characters each. */
function fitted(table: string[][], names: readonly number[], width: number): string[][] {
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => [...row[c]].length)));
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  while (total() > width) {
    const widest = names.reduce((a, b) => (widths[b] > widths[a] ? b : a));
    if (widths[widest] <= 12) break;
    widths[widest] -= 1;
  }
  return table.map((row) => row.map((cell, c) => (names.includes(c) ? middleCut(cell, Math.max(widths[c], [...table[0][c]].length)) : cell)));
}

/** Words of `line` put on lines of at most `width`, the next ones indented by `indent`. */
function wrapped(line: string, width: number, indent = '    '): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const next = current === '' ? word : `${current} ${word}`;
    if ([...next].length > width && current.trim() !== '') {
      out.push(current);
      current = `${indent}${word}`;
    } else current = next;
  }
  out.push(current);
  return out;
}

/** The table format within TABLE_WIDTH: the main columns, names cut in their middle, text wrapped. */
function narrowTable(r: LeaderboardRecord, legend: readonly string[]): string[] {
  const wide = [header(r), ...r.entries.map((e) => cells(r, e))];
  const keep = NARROW_COLUMNS.map((name) => wide[0].indexOf(name));
  const table = wide.map((row, i) => keep.map((c) => (i === 0 ? (NARROW_HEADERS[row[c]] ?? row[c]) : row[c])));
  const pairs = pairLines(r);
  pairs[0][2] = 'Δ EvoScore(γ=1)';
  const lines = [
    `leaderboard · ${about(r)}`,
    aligned(fitted(table, [2], TABLE_WIDTH)),
    '',
    'pairs (EvoScore(γ=1), paired bootstrap over the tasks both scored):',
    aligned(fitted(pairs, [0, 1], TABLE_WIDTH), 1),
    '',
    'notes:',
    ...[
      ...legend,
      'zero reg.: the zero_regression rate; cost/task: cost per task',
      'more columns (EvoScore at each γ, rank move, intervals of solved and zero_regression, iterations, tokens, wall time, flagged, tasks, missing, cost frontier): --wide, or --format markdown, csv or json',
      ...r.notes,
    ].map((n) => `  ${n}`),
    '',
  ];
  return lines.flatMap((l) => (l.includes('\n') ? [l] : wrapped(l, TABLE_WIDTH)));
}

function markdown(table: string[][]): string[] {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${table[0].map(esc).join(' | ')} |`,
    `|${table[0].map(() => ' --- ').join('|')}|`,
    ...table.slice(1).map((row) => `| ${row.map(esc).join(' | ')} |`),
  ];
}

function about(r: LeaderboardRecord): string {
  return (
    `${r.entries.length} entries · ${r.tasks.length} tasks (${r.tasksPolicy === 'common' ? 'every entry scored' : 'union: each entry on its own'}) · ` +
    `N = ${r.maxEpoch} · 95% intervals: percentile bootstrap, ${r.bootstrap.resamples} resamples of ${r.bootstrap.repositories} ${r.bootstrap.repositories === 1 ? 'repository' : 'repositories'}, seed ${r.bootstrap.seed}`
  );
}

/** `r` as `format`; the table keeps to TABLE_WIDTH columns unless `wide`. */
export function formatLeaderboard(r: LeaderboardRecord, format: LeaderboardFormat, opts: { wide?: boolean } = {}): string {
  if (format === 'json') return JSON.stringify(r, null, 2) + '\n';
  if (format === 'csv') {
    const others = r.gammas.filter((g) => g !== '1');
    const rows: (string | number | boolean | null)[][] = [
      [
        'label',
        'provider',
        'released',
        'kind',
        'group',
        'rank',
        'evoscore_1',
        'evoscore_1_ci_low',
        'evoscore_1_ci_high',
        ...others.map((g) => `evoscore_${g}`),
        'rank_move',
        'solved_rate',
        'solved_ci_low',
        'solved_ci_high',
        'zero_regression_rate',
        'zero_regression_ci_low',
        'zero_regression_ci_high',
        'mean_iterations',
        'tokens_in',
        'tokens_out',
        'tokens_cached',
        'tokens_source',
        'cost_per_task',
        'wall_seconds_per_task',
        'flagged_tasks',
        'tasks',
        'missing',
        'on_cost_frontier',
        'tasks_policy',
      ],
    ];
    for (const e of r.entries) {
      rows.push([
        e.label,
        e.provider,
        e.released,
        e.kind,
        e.group,
        r.ranks['1'].find((x) => x.label === e.label)!.rank,
        e.evoScore['1'],
        ...e.evoScoreCI95,
        ...others.map((g) => e.evoScore[g]),
        e.rankMove,
        e.solvedRate,
        ...e.solvedCI95,
        e.zeroRegressionRate,
        ...e.zeroRegressionCI95,
        e.meanIterations,
        e.tokensPerTask.input,
        e.tokensPerTask.output,
        e.tokensPerTask.cached,
        e.tokensPerTask.source,
        e.costPerTask,
        e.wallSecondsPerTask,
        e.flaggedTasks,
        e.tasks,
        e.missing.join(' '),
        e.onCostFrontier,
        r.tasksPolicy,
      ]);
    }
    return stringify(rows.map((row) => row.map((v) => (v === null ? '' : v))));
  }
  const flagged = r.entries.some((e) => e.flaggedTasks > 0);
  const legend = [
    'group: an entry not distinguishable from the one above it shares its group',
    ...(flagged ? ['⚑: some tasks carry an integrity flag (see flagged)'] : []),
  ];
  if (format === 'table' && !opts.wide) return narrowTable(r, legend).join('\n');
  const table = [header(r), ...r.entries.map((e) => cells(r, e))];
  const out: string[] = [];
  if (format === 'markdown') {
    out.push(
      `**Leaderboard** · ${about(r)}`,
      '',
      ...markdown(table),
      '',
      '**Pairs** (EvoScore(γ=1), paired bootstrap over the tasks both scored)',
      '',
      ...markdown(pairLines(r)),
      '',
    );
  } else {
    out.push(`leaderboard · ${about(r)}`, aligned(table), '', 'pairs (EvoScore(γ=1), paired bootstrap over the tasks both scored):', aligned(pairLines(r)), '');
  }
  const lead = format === 'markdown' ? '- ' : '  ';
  out.push(format === 'markdown' ? '**Notes:**' : 'notes:', ...[...legend, ...r.notes].map((n) => lead + n), '');
  return out.join('\n');
}
