// The normalized change a(c) ∈ [−1, 1] of one pytest run, by the reference harness's rules:
// progress is measured against the distance to the target, regress against the base.

export interface Baseline {
  /** pytest.passed of the base run (iteration.jsonl line 0). */
  init: number;
  /** init + the base run's gap: the passed count the target reaches. */
  target: number;
}

/** Line 0 of iteration.jsonl gives the baseline; undefined when the base run did not run pytest. */
export function baselineOf(line0: { gap: number; pytest: Record<string, number> }): Baseline | undefined {
  if (line0.gap < 0) return undefined;
  const init = line0.pytest.passed ?? 0;
  return { init, target: init + line0.gap };
}

/** a(c) for a run that passed `passed` tests; clamped to [0, target] first, as the reference does. */
export function normalizedChange(passed: number, { init, target }: Baseline): number {
  const p = Math.min(Math.max(passed, 0), target);
  if (p > init) return target === init ? 1 : (p - init) / (target - init);
  if (p < init) return init === 0 ? -1 : (p - init) / init;
  return 0;
}
