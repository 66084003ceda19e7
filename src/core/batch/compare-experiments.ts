// `sweci compare`: two experiments (two models, two agents) side by side, task by task and on
// average over the tasks both scored. Each side is its experiment's own run, summarised exactly
// as `summarize` does.
import { summarizeExperiment, type SummaryGroup, type SummaryOptions } from './experiment-summary';
import { UserError } from '../util/errors';
import { METRIC_COLUMN_LIST } from '../../shared/metrics/metric-columns';
import { runFlagLabel, type FlaggedCount, type RunFlag } from '../../shared/metrics/run-flags';
import { averageMetrics, type RunMetricsRow } from '../../shared/metrics/run-metrics';

export interface CompareSide {
  experiment: string;
  run: string;
}

/** The metric columns `sweci compare` shows (metric-columns.ts `compare`), in order. */
const COMPARE_COLUMNS = METRIC_COLUMN_LIST.flatMap((c) => (c.compare ? [{ ...c.compare, id: c.id }] : []));

/**
 * Each compared metric's value (number, boolean or null) on side A and side B, under its
 * column's `keys` (a, b; solvedA, solvedB; …): the JSON output's flat shape.
 */
type CompareValues = Record<string, unknown>;

export type CompareRow = { task: string } & CompareValues & {
    /** Each side's integrity flags (metrics/run-flags.ts): a flagged side's score is in doubt. */
    flagsA: RunFlag[];
    flagsB: RunFlag[];
    /** The flags each side's score rests on (scored-line.ts scoreFlags), named beside it. */
    scoreFlagsA: RunFlag[];
    scoreFlagsB: RunFlag[];
  };

/** Means over the rows (the tasks both sides scored), and the flagged runs each side's means include. */
export type CompareAverage = CompareValues & {
  flaggedA: FlaggedCount;
  flaggedB: FlaggedCount;
  solvedFlaggedA: FlaggedCount;
  solvedFlaggedB: FlaggedCount;
};

export interface ExperimentComparison {
  a: CompareSide;
  b: CompareSide;
  maxEpoch?: number;
  rows: CompareRow[];
  average: CompareAverage;
  onlyA: string[];
  onlyB: string[];
}

/** Side A's and side B's value of each compared column, under its keys. */
function sideBySide(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): CompareValues {
  const value = (v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? v : null);
  return Object.fromEntries(
    COMPARE_COLUMNS.flatMap((c) => [
      [c.keys[0], value(a[c.id])],
      [c.keys[1], value(b[c.id])],
    ]),
  );
}

async function side(
  dir: string,
  run: string | undefined,
  opts: SummaryOptions,
): Promise<{ side: CompareSide; group: SummaryGroup | undefined; maxEpoch?: number }> {
  const summary = await summarizeExperiment(dir, { ...opts, ...(run ? { run } : {}) });
  const name = run ?? summary.run ?? summary.groups.find((g) => g.kind !== 'human-history')?.run;
  if (!name) throw new UserError(`${dir} has no run to compare. Give one with --run-a / --run-b, or run sweci run first.`);
  return {
    side: { experiment: dir, run: name },
    group: summary.groups.find((g) => g.run === name),
    ...(summary.maxEpoch ? { maxEpoch: summary.maxEpoch } : {}),
  };
}

export async function compareExperiments(
  dirA: string,
  dirB: string,
  opts: SummaryOptions & { runA?: string; runB?: string } = {},
): Promise<ExperimentComparison> {
  const [A, B] = await Promise.all([side(dirA, opts.runA, opts), side(dirB, opts.runB, opts)]);
  if (A.maxEpoch !== undefined && B.maxEpoch !== undefined && A.maxEpoch !== B.maxEpoch && opts.maxEpoch === undefined) {
    throw new UserError(
      `The experiments allow different numbers of iterations (${A.maxEpoch} and ${B.maxEpoch}); their EvoScores are not comparable as they are. Give --max-epoch N to score both over N.`,
    );
  }
  const rowsA = new Map((A.group?.rows ?? []).map((r) => [r.task, r]));
  const rowsB = new Map((B.group?.rows ?? []).map((r) => [r.task, r]));
  const rows: CompareRow[] = [];
  const common: { a: RunMetricsRow; b: RunMetricsRow }[] = [];
  for (const [task, ra] of rowsA) {
    const rb = rowsB.get(task);
    if (!rb) continue;
    rows.push({
      task,
      ...sideBySide(ra.metrics, rb.metrics),
      flagsA: ra.flags,
      flagsB: rb.flags,
      scoreFlagsA: ra.metrics.scoreFlags,
      scoreFlagsB: rb.metrics.scoreFlags,
    });
    common.push({ a: ra.metrics, b: rb.metrics });
  }
  rows.sort((x, y) => x.task.localeCompare(y.task));
  // The one average of the metrics (as summarize's), over the tasks both sides scored.
  const avgA = averageMetrics(common.map((c) => c.a));
  const avgB = averageMetrics(common.map((c) => c.b));
  return {
    a: A.side,
    b: B.side,
    ...((opts.maxEpoch ?? A.maxEpoch) ? { maxEpoch: opts.maxEpoch ?? A.maxEpoch } : {}),
    rows,
    average: {
      ...sideBySide(avgA, avgB),
      flaggedA: avgA.flagged,
      flaggedB: avgB.flagged,
      solvedFlaggedA: avgA.solvedFlagged,
      solvedFlaggedB: avgB.solvedFlagged,
    },
    onlyA: [...rowsA.keys()].filter((t) => !rowsB.has(t)).sort(),
    onlyB: [...rowsB.keys()].filter((t) => !rowsA.has(t)).sort(),
  };
}

/** The comparison as an aligned table (or JSON): EvoScore A, B and B − A per task, then the averages. */
export function formatComparison(c: ExperimentComparison, format: 'table' | 'json'): string {
  if (format === 'json') return JSON.stringify(c, null, 2) + '\n';
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  const delta = (a: number | null, b: number | null) => (a === null || b === null ? '–' : `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(4)}`);
  const table = [['task', ...COMPARE_COLUMNS.flatMap((col) => [`${col.head} A`, `${col.head} B`, ...(col.delta ? ['B − A'] : [])])]];
  for (const r of c.rows) {
    const sideA = { flags: r.flagsA, scoreFlags: r.scoreFlagsA };
    const sideB = { flags: r.flagsB, scoreFlags: r.scoreFlagsB };
    table.push([
      r.task,
      ...COMPARE_COLUMNS.flatMap((col) => {
        const [a, b] = [r[col.keys[0]] as number | boolean | null, r[col.keys[1]] as number | boolean | null];
        return [col.cell(a, sideA), col.cell(b, sideB), ...(col.delta ? [delta(num(a), num(b))] : [])];
      }),
    ]);
  }
  // Each average says how many flagged runs it includes; the solved rate, how many of its solved are flagged.
  const av = c.average;
  const notesA = { count: c.rows.length, flagged: av.flaggedA, solvedFlagged: av.solvedFlaggedA };
  const notesB = { count: c.rows.length, flagged: av.flaggedB, solvedFlagged: av.solvedFlaggedB };
  table.push([
    `average (${c.rows.length})`,
    ...COMPARE_COLUMNS.flatMap((col) => {
      const [a, b] = [num(av[col.keys[0]]), num(av[col.keys[1]])];
      return [col.average(a, notesA), col.average(b, notesB), ...(col.delta ? [delta(a, b)] : [])];
    }),
  ]);
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => [...r[i]].length)));
  const lines = [
    `A: ${c.a.experiment} (run ${c.a.run})`,
    `B: ${c.b.experiment} (run ${c.b.run})`,
    `N = ${c.maxEpoch ?? 'per task'}`,
    ...table.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')),
  ];
  for (const r of c.rows) {
    for (const [side, flags] of [
      ['A', r.flagsA],
      ['B', r.flagsB],
    ] as const) {
      if (flags.length) lines.push(`⚑ ${r.task} in ${side}: ${flags.map((fl) => runFlagLabel(fl)).join('; ')}`);
    }
  }
  if (c.onlyA.length) lines.push(`only in A: ${c.onlyA.join(', ')}`);
  if (c.onlyB.length) lines.push(`only in B: ${c.onlyB.join(', ')}`);
  return lines.join('\n') + '\n';
}
