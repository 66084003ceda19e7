// The continual-learning metrics of SWE-Bench-CL (§7), from a results matrix.
//
// Notation (0-based here, 1-based in the paper): N tasks in sequence order; a[i][j] is the success
// rate on task j measured after task i was processed (its tests re-run then), for j ≤ i. Entries
// that were not measured (a task whose run failed, a re-run that did not happen) are null and
// are left out of every sum; a metric with no term left is null, never a made-up 0.
//
//   ACC  = mean_j a[N-1][j]
//   F    = mean_{j<N-1} ( max_{k≤j} a[k][j] − a[N-1][j] )          (k ≤ j as the paper prints it:
//          with only earlier tasks re-run, max_{k≤j} a[k][j] is a[j][j] and F = −BWT)
//   BWT  = mean_{i<N-1} ( a[N-1][i] − a[i][i] )
//   FT   = mean_{i<N-1} ( a[i+1][i+1] − z[i+1] )                       (z: zero-shot success)
//   AULC = mean_i ( mean_{k≤i} a[k][k] )
//   TUE  = median(time | resolved) / median(time | all)
//   CL-P = mean_i a[i][i];  CL-S = 1 − F
//   CL-Fβ = (1+β²)·P·S / (β²·P + S);  CL-F1 = CL-Fβ at β = 1
//   CL-Score = ACC − λF·F + λFT·FT + λBWT·BWT + λAULC·AULC + CL-Fβ (+ λTUE·TUE, 0 by default)
//
// FT: the paper's a_{i,i+1} is the success on task i+1 with the experience of tasks 1..i. Here
// that is task i+1's own first attempt (the diagonal): the attempt is made with that experience.
// z comes from a run without memory (the paper's zero-shot baseline); without it FT is null.

type ResultsMatrix = ReadonlyArray<ReadonlyArray<number | null | undefined>>;

export interface ClWeights {
  forgetting: number;
  forwardTransfer: number;
  backwardTransfer: number;
  aulc: number;
  /** Listed among the paper's weights but not in its formula: 0 keeps the formula as printed. */
  toolUseEfficiency: number;
  /** CL-Fβ's β: 1 balanced, below 1 favours plasticity, above 1 stability. */
  beta: number;
}

export const DEFAULT_CL_WEIGHTS: ClWeights = { forgetting: 1, forwardTransfer: 1, backwardTransfer: 1, aulc: 1, toolUseEfficiency: 0, beta: 1 };

export interface ClInputs {
  matrix: ResultsMatrix;
  /** z[j]: task j's success without memory of earlier tasks; needed for FT. */
  zeroShot?: ReadonlyArray<number | null | undefined>;
  /** Per task: time spent on it (seconds) and whether it was resolved; needed for TUE. */
  runs?: ReadonlyArray<{ seconds: number; resolved: boolean } | null | undefined>;
}

export interface ClMetrics {
  n: number;
  acc: number | null;
  forgetting: number | null;
  bwt: number | null;
  fwt: number | null;
  aulc: number | null;
  tue: number | null;
  plasticity: number | null;
  stability: number | null;
  f1: number | null;
  fBeta: number | null;
  score: number | null;
  /** Why a metric is null, by name, for the views. */
  missing: Partial<Record<Exclude<keyof ClMetrics, 'n' | 'missing'>, string>>;
}

const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

function mean(values: readonly (number | null | undefined)[]): number | null {
  const ok = values.filter(known);
  return ok.length === 0 ? null : ok.reduce((s, v) => s + v, 0) / ok.length;
}

function at(m: ResultsMatrix, i: number, j: number): number | null {
  const v = m[i]?.[j];
  return known(v) ? v : null;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function accuracy(m: ResultsMatrix): number | null {
  const n = m.length;
  return n === 0 ? null : mean(Array.from({ length: n }, (_, j) => at(m, n - 1, j)));
}

export function forgetting(m: ResultsMatrix): number | null {
  const n = m.length;
  const terms: number[] = [];
  for (let j = 0; j < n - 1; j++) {
    const last = at(m, n - 1, j);
    const earlier = Array.from({ length: j + 1 }, (_, k) => at(m, k, j)).filter(known);
    if (last !== null && earlier.length > 0) terms.push(Math.max(...earlier) - last);
  }
  return mean(terms);
}

export function backwardTransfer(m: ResultsMatrix): number | null {
  const n = m.length;
  const terms: number[] = [];
  for (let i = 0; i < n - 1; i++) {
    const last = at(m, n - 1, i);
    const first = at(m, i, i);
    if (last !== null && first !== null) terms.push(last - first);
  }
  return mean(terms);
}

export function forwardTransfer(m: ResultsMatrix, zeroShot: ReadonlyArray<number | null | undefined> | undefined): number | null {
  if (!zeroShot) return null;
  const terms: number[] = [];
  for (let i = 0; i < m.length - 1; i++) {
    const first = at(m, i + 1, i + 1);
    const z = zeroShot[i + 1];
    if (first !== null && known(z)) terms.push(first - z);
  }
  return mean(terms);
}

/**
 * The learning curve: after each task i, the mean first-attempt success of tasks 0..i. A task
 * whose row is empty (not run yet, or its run recorded nothing) makes no point: the chart draws a
 * gap there and AULC, the mean of the points, does not count a value carried over it.
 */
export function learningCurve(m: ResultsMatrix): Array<number | null> {
  return m.map((row, i) => (row.length === 0 ? null : mean(Array.from({ length: i + 1 }, (_, k) => at(m, k, k)))));
}

/** After each task i, the mean success of tasks 0..i re-run on its code (ACC is the last one). */
export function accuracyCurve(m: ResultsMatrix): Array<number | null> {
  return m.map((_, i) => mean(Array.from({ length: i + 1 }, (_, j) => at(m, i, j))));
}

function areaUnderLearningCurve(m: ResultsMatrix): number | null {
  return mean(learningCurve(m));
}

export function plasticity(m: ResultsMatrix): number | null {
  return mean(m.map((_, i) => at(m, i, i)));
}

export function toolUseEfficiency(runs: ClInputs['runs']): number | null {
  const done = (runs ?? []).filter((r): r is { seconds: number; resolved: boolean } => !!r && known(r.seconds));
  const all = median(done.map((r) => r.seconds));
  const ok = median(done.filter((r) => r.resolved).map((r) => r.seconds));
  return all === null || ok === null || all === 0 ? null : ok / all;
}

export function fBeta(p: number, s: number, beta: number): number {
  if (!(beta > 0) || !Number.isFinite(beta)) throw new RangeError(`CL-Fβ needs a finite β greater than 0 (got ${String(beta)}).`);
  const b2 = beta * beta;
  const den = b2 * p + s;
  return den === 0 ? 0 : ((1 + b2) * p * s) / den;
}

export function clMetrics(inputs: ClInputs, weights: ClWeights = DEFAULT_CL_WEIGHTS): ClMetrics {
  const m = inputs.matrix;
  const n = m.length;
  const missing: ClMetrics['missing'] = {};
  const note = <T>(name: keyof ClMetrics['missing'], value: T | null, why: string): T | null => {
    if (value === null) missing[name] = why;
    return value;
  };
  const noEarlier = n < 2 ? 'needs at least 2 tasks' : 'no task measured both when first done and after the last';
  const acc = note('acc', accuracy(m), "the last task's row has no result");
  const f = note('forgetting', forgetting(m), noEarlier);
  const bwt = note('bwt', backwardTransfer(m), noEarlier);
  const fwt = note('fwt', forwardTransfer(m, inputs.zeroShot), inputs.zeroShot ? noEarlier : 'needs the zero-shot results of a run without memory');
  const aulc = note('aulc', areaUnderLearningCurve(m), 'no task has a first result');
  const tue = note('tue', toolUseEfficiency(inputs.runs), 'needs the times of the tasks, at least one resolved');
  const p = note('plasticity', plasticity(m), 'no task has a first result');
  const s = note('stability', f === null ? null : 1 - f, `forgetting: ${noEarlier}`);
  const f1 = note('f1', p === null || s === null ? null : fBeta(p, s, 1), 'needs plasticity and stability');
  const fb = note('fBeta', p === null || s === null ? null : fBeta(p, s, weights.beta), 'needs plasticity and stability');
  // A term with weight 0 drops out even when unknown; a weighted unknown term leaves no score.
  const terms: Array<[number, number | null, string]> = [
    [1, acc, 'ACC'],
    [-weights.forgetting, f, 'F'],
    [weights.forwardTransfer, fwt, 'FT'],
    [weights.backwardTransfer, bwt, 'BWT'],
    [weights.aulc, aulc, 'AULC'],
    [1, fb, 'CL-Fβ'],
    [weights.toolUseEfficiency, tue, 'TUE'],
  ];
  const unknown = terms.filter(([w, v]) => w !== 0 && v === null).map(([, , name]) => name);
  const score = note(
    'score',
    unknown.length ? null : terms.reduce((sum, [w, v]) => sum + (w === 0 ? 0 : w * (v as number)), 0),
    `${unknown.join(', ')} unknown: give the results they need, or set their weight to 0`,
  );
  return { n, acc, forgetting: f, bwt, fwt, aulc, tue, plasticity: p, stability: s, f1, fBeta: fb, score, missing };
}
