// The leaderboard record as text: an aligned table for a terminal, Markdown for a report or a
// pull request, CSV for a spreadsheet (one row per entry, numbers bare), JSON for scripts (the
// record itself, checked against its schema before it is printed). Pure: no node imports.
import { stringify } from 'csv-stringify/sync';
import { formatDuration, formatTokens } from '../metrics/metric-format';
import { leaderboardRecordSchema, type LeaderboardEntry, type LeaderboardRecord } from './leaderboard-record';

export const LEADERBOARD_FORMATS = ['table', 'markdown', 'csv', 'json'] as const;
export type LeaderboardFormat = (typeof LEADERBOARD_FORMATS)[number];

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

function aligned(table: string[][]): string {
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => [...row[c]].length)));
  return table.map((row) => row.map((cell, c) => (c <= 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
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

export function formatLeaderboard(r: LeaderboardRecord, format: LeaderboardFormat): string {
  if (format === 'json') return JSON.stringify(leaderboardRecordSchema.parse(r), null, 2) + '\n';
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
  const table = [header(r), ...r.entries.map((e) => cells(r, e))];
  const flagged = r.entries.some((e) => e.flaggedTasks > 0);
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
  const legend = [
    'group: an entry not distinguishable from the one above it shares its group',
    ...(flagged ? ['⚑: some tasks carry an integrity flag (see flagged)'] : []),
  ];
  out.push(format === 'markdown' ? '**Notes:**' : 'notes:', ...[...legend, ...r.notes].map((n) => lead + n), '');
  return out.join('\n');
}
