// `sweci compare`: two experiments (two models, two agents) side by side, task by task and on
// average over the tasks both scored. Each side is its experiment's own run, summarised exactly
// as `summarize` does.
import { summarizeExperiment, type SummaryGroup, type SummaryOptions } from './experiment-summary';
import { UserError } from '../util/errors';
import { RUN_FLAG_LABELS, flaggedNote, flaggedScore, type FlaggedCount, type RunFlag } from '../metrics/run-flags';
import { averageMetrics, type RunMetricsRow } from '../metrics/run-metrics';

export interface CompareSide {
  experiment: string;
  run: string;
}

export interface CompareRow {
  task: string;
  /** EvoScore(γ=1) as the reference computes it; null: no baseline. */
  a: number | null;
  b: number | null;
  solvedA: boolean;
  solvedB: boolean;
  zeroRegressionA: boolean;
  zeroRegressionB: boolean;
  /** Each side's integrity flags (metrics/run-flags.ts): a flagged side's score is in doubt. */
  flagsA: RunFlag[];
  flagsB: RunFlag[];
  /** The flags each side's score rests on (scored-line.ts scoreFlags), named beside it. */
  scoreFlagsA: RunFlag[];
  scoreFlagsB: RunFlag[];
}

export interface ExperimentComparison {
  a: CompareSide;
  b: CompareSide;
  maxEpoch?: number;
  rows: CompareRow[];
  /** Means over `rows` (the tasks both sides scored), and the flagged runs each side's means include. */
  average: {
    a: number | null;
    b: number | null;
    solvedA: number;
    solvedB: number;
    zeroRegressionA: number;
    zeroRegressionB: number;
    flaggedA: FlaggedCount;
    flaggedB: FlaggedCount;
    solvedFlaggedA: FlaggedCount;
    solvedFlaggedB: FlaggedCount;
  };
  onlyA: string[];
  onlyB: string[];
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
      a: ra.metrics.evoScoreReference,
      b: rb.metrics.evoScoreReference,
      solvedA: ra.metrics.solved,
      solvedB: rb.metrics.solved,
      zeroRegressionA: ra.metrics.zeroRegression,
      zeroRegressionB: rb.metrics.zeroRegression,
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
      a: avgA.evoScoreReference,
      b: avgB.evoScoreReference,
      solvedA: avgA.solved,
      solvedB: avgB.solved,
      zeroRegressionA: avgA.zeroRegression,
      zeroRegressionB: avgB.zeroRegression,
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
  const f = (v: number | null) => (v === null ? '–' : v.toFixed(4));
  const delta = (a: number | null, b: number | null) => (a === null || b === null ? '–' : `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(4)}`);
  const yes = (v: boolean, scoreFlags: readonly RunFlag[] = []) => (v ? flaggedScore('1', scoreFlags) : '0');
  const table = [['task', 'EvoScore A', 'EvoScore B', 'B − A', 'solved A', 'solved B', 'zero_reg A', 'zero_reg B']];
  // A flagged side's score is marked with ⚑ and the flags it rests on (all its flags listed under the table).
  const mark = (v: string, flags: readonly RunFlag[], scoreFlags: readonly RunFlag[]) =>
    scoreFlags.length ? flaggedScore(v, scoreFlags) : flags.length ? `${v} ⚑` : v;
  // Each average says how many flagged runs it includes; the solved rate, how many of its solved are flagged.
  const withNote = (v: string, count: FlaggedCount) => (count.runs ? `${v} (${flaggedNote(count)})` : v);
  for (const r of c.rows) {
    table.push([
      r.task,
      mark(f(r.a), r.flagsA, r.scoreFlagsA),
      mark(f(r.b), r.flagsB, r.scoreFlagsB),
      delta(r.a, r.b),
      yes(r.solvedA, r.scoreFlagsA),
      yes(r.solvedB, r.scoreFlagsB),
      yes(r.zeroRegressionA),
      yes(r.zeroRegressionB),
    ]);
  }
  const av = c.average;
  table.push([
    `average (${c.rows.length})`,
    withNote(f(av.a), av.flaggedA),
    withNote(f(av.b), av.flaggedB),
    delta(av.a, av.b),
    withNote(av.solvedA.toFixed(4), av.solvedFlaggedA),
    withNote(av.solvedB.toFixed(4), av.solvedFlaggedB),
    av.zeroRegressionA.toFixed(4),
    av.zeroRegressionB.toFixed(4),
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
      if (flags.length) lines.push(`⚑ ${r.task} in ${side}: ${flags.map((fl) => RUN_FLAG_LABELS[fl]).join('; ')}`);
    }
  }
  if (c.onlyA.length) lines.push(`only in A: ${c.onlyA.join(', ')}`);
  if (c.onlyB.length) lines.push(`only in B: ${c.onlyB.join(', ')}`);
  return lines.join('\n') + '\n';
}
