// `sweci compare`: two experiments (two models, two agents) side by side, task by task and on
// average over the tasks both scored. Each side is its experiment's own run, summarised exactly
// as `summarize` does.
import { summarizeExperiment, type SummaryGroup, type SummaryOptions } from './experiment-summary';
import { UserError } from '../util/errors';
import { RUN_FLAG_LABELS, type RunFlag } from '../metrics/run-flags';

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
}

export interface ExperimentComparison {
  a: CompareSide;
  b: CompareSide;
  maxEpoch?: number;
  rows: CompareRow[];
  /** Means over `rows` (the tasks both sides scored). */
  average: { a: number | null; b: number | null; solvedA: number; solvedB: number; zeroRegressionA: number; zeroRegressionB: number };
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
    });
  }
  rows.sort((x, y) => x.task.localeCompare(y.task));
  const mean = (vs: (number | null)[]) => {
    const xs = vs.filter((v): v is number => v !== null);
    return xs.length ? xs.reduce((s, v) => s + v, 0) / xs.length : null;
  };
  const rate = (f: (r: CompareRow) => boolean) => (rows.length ? rows.filter(f).length / rows.length : 0);
  return {
    a: A.side,
    b: B.side,
    ...((opts.maxEpoch ?? A.maxEpoch) ? { maxEpoch: opts.maxEpoch ?? A.maxEpoch } : {}),
    rows,
    average: {
      a: mean(rows.map((r) => r.a)),
      b: mean(rows.map((r) => r.b)),
      solvedA: rate((r) => r.solvedA),
      solvedB: rate((r) => r.solvedB),
      zeroRegressionA: rate((r) => r.zeroRegressionA),
      zeroRegressionB: rate((r) => r.zeroRegressionB),
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
  const yes = (v: boolean) => (v ? '1' : '0');
  const table = [['task', 'EvoScore A', 'EvoScore B', 'B − A', 'solved A', 'solved B', 'zero_reg A', 'zero_reg B']];
  // A flagged side's score is marked with ⚑ (its flags listed under the table).
  const mark = (v: string, flags: readonly RunFlag[]) => (flags.length ? `${v} ⚑` : v);
  for (const r of c.rows) {
    table.push([
      r.task,
      mark(f(r.a), r.flagsA),
      mark(f(r.b), r.flagsB),
      delta(r.a, r.b),
      yes(r.solvedA),
      yes(r.solvedB),
      yes(r.zeroRegressionA),
      yes(r.zeroRegressionB),
    ]);
  }
  const av = c.average;
  table.push([
    `average (${c.rows.length})`,
    f(av.a),
    f(av.b),
    delta(av.a, av.b),
    av.solvedA.toFixed(4),
    av.solvedB.toFixed(4),
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
