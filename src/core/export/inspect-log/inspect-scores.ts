// A task's run as Inspect scores: one score per metric — EvoScore at γ, the final a(c), solved,
// zero regression — with the values of each iteration in the score's metadata, and the eval's
// results as the means over the samples. Every number is the chart's own (chartRun's row and
// points, averageMetrics's mean): nothing is scored again here.
import type { ChartRun } from '../../../shared/chart-types';
import { averageMetrics } from '../../../shared/metrics/run-metrics';
import type { RunMetricsRow } from '../../../shared/metrics/run-metrics-row';
import type { InspectEvalScore, InspectReduction, InspectScore } from './inspect-log-types';

/** The scorers, in the order Inspect lists them. */
export const INSPECT_SCORERS = ['evoscore', 'final_a', 'solved', 'zero_regression'] as const;
type Scorer = (typeof INSPECT_SCORERS)[number];

/** The sample's scores (a score whose metric has no value — no baseline — is left out, and the reason given on the others). */
export function sampleScores(run: ChartRun): Partial<Record<Scorer, InspectScore>> {
  const m = run.metrics;
  const flags = m.scoreFlags.length ? { flags: m.scoreFlags } : {};
  const byIteration = <T>(f: (p: ChartRun['points'][number]) => T) => run.points.filter((p) => p.iteration > 0).map(f);
  const scores: Partial<Record<Scorer, InspectScore>> = {};
  if (m.evoScore !== null)
    scores.evoscore = {
      value: m.evoScore,
      explanation: `EvoScore at γ = ${m.gamma} over N = ${m.maxIterations} iterations (the reference's, at γ = 1: ${m.evoScoreReference ?? 'none'})`,
      metadata: { gamma: m.gamma, max_iterations: m.maxIterations, evo_score_reference: m.evoScoreReference, a_padded: run.evoA, ...flags },
    };
  if (m.finalA !== null)
    scores.final_a = {
      value: m.finalA,
      explanation: `a(c) of the last iteration whose pytest ran, of ${m.iterations} (${m.crashed} did not run pytest)`,
      metadata: { a_by_iteration: byIteration((p) => p.a), crashed: byIteration((p) => p.crashed), ...flags },
    };
  const baseline = run.baseline;
  scores.solved = {
    value: m.solved,
    explanation: baseline
      ? `the target's ${baseline.target} tests passed in some iteration: ${m.solved ? 'yes' : 'no'}`
      : 'no baseline: the base run did not run pytest',
    metadata: { passed_by_iteration: byIteration((p) => p.pytestPassed), init: baseline?.init ?? null, target: baseline?.target ?? null, ...flags },
  };
  scores.zero_regression = {
    value: m.zeroRegression,
    explanation: `no iteration passed fewer tests than the one before: ${m.zeroRegression ? 'yes' : 'no'} (${m.regressions} regressed tests)`,
    metadata: { regressions_by_iteration: byIteration((p) => p.regressions), regressions: m.regressions, ...flags },
  };
  return scores;
}

/** The eval's results: each scorer's mean over the samples (averageMetrics: the summary table's average row). */
export function evalScores(rows: readonly RunMetricsRow[], scored: ReadonlyArray<Partial<Record<Scorer, InspectScore>>>): InspectEvalScore[] {
  const avg = averageMetrics(rows);
  const value: Record<Scorer, { name: string; value: number | null }> = {
    evoscore: { name: 'mean', value: avg.evoScore },
    final_a: { name: 'mean', value: avg.finalA },
    solved: { name: 'accuracy', value: avg.solved },
    zero_regression: { name: 'accuracy', value: avg.zeroRegression },
  };
  return INSPECT_SCORERS.map((name) => {
    const count = scored.filter((s) => s[name] !== undefined).length;
    const metric = value[name];
    return {
      name,
      scorer: name,
      scored_samples: count,
      unscored_samples: scored.length - count,
      params: name === 'evoscore' ? { gamma: rows[0]?.gamma ?? 1 } : {},
      metrics: metric.value === null ? {} : { [metric.name]: { name: metric.name, value: metric.value, params: {} } },
    };
  });
}

/** reductions.json: each scorer's score of each sample (one epoch: the score itself). */
export function reductions(samples: ReadonlyArray<{ id: string; scores: Partial<Record<Scorer, InspectScore>> }>): InspectReduction[] {
  return INSPECT_SCORERS.map((scorer) => ({
    scorer,
    samples: samples.flatMap((s) => {
      const score = s.scores[scorer];
      return score ? [{ ...score, sample_id: s.id }] : [];
    }),
  }));
}
