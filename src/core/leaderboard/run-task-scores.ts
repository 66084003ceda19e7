// One run's numbers per task, as `sweci summarize` computes them (summarizeExperiment with the
// same N and scoring rules), plus what the summary leaves out: cached tokens, dollars, where the
// token counts come from (from the iteration.jsonl lines summarize read, never the agents' raw
// logs) and each task's repository (the bootstrap's cluster).
import { experimentLayout } from '../batch/experiment';
import { summarizeExperiment } from '../batch/experiment-summary';
import type { IterationRecord } from '../loop/iteration-record';
import type { ScoringRules } from '../metrics/scored-line';
import { readTaskRecord } from '../workspace/task-record';

export type TokenSource = 'wire' | 'agent-reported' | 'mixed' | 'none';

export interface TaskScore {
  task: string;
  /** The task's upstream repository, or `task:<id>` when unknown (its own cluster). */
  cluster: string;
  /** EvoScore by γ, in the order of the gammas asked for. */
  evo: number[];
  solved: number;
  zeroRegression: number;
  iterations: number;
  tokensIn: number;
  tokensOut: number;
  cached: number;
  /** Dollars; null when some agent step has no price. */
  cost: number | null;
  source: TokenSource;
  wallSeconds: number;
  /** The score rests on an integrity flag (counted as the summary's `flagged`). */
  flagged: boolean;
}

export interface RunScoresOptions {
  gammas: readonly number[];
  maxEpoch: number;
  scoring: ScoringRules;
}

/** The run's scored tasks (those with a baseline, as the summary's EvoScore means count them), in the summary's task order. */
export async function runTaskScores(experiment: string, run: string, opts: RunScoresOptions): Promise<TaskScore[]> {
  const summary = await summarizeExperiment(experiment, { gammas: opts.gammas, run, maxEpoch: opts.maxEpoch, scoring: opts.scoring, lines: true });
  const group = summary.groups.find((g) => g.run === run);
  // Each scored task's record, read side by side; the scores keep the summary's order.
  const scored = (group?.rows ?? []).flatMap((row) => {
    // summarize puts γ = 1 first, then the others in the order given.
    const evo = opts.gammas.map((g) => row.evo[summary.gammas.indexOf(g)]);
    return evo.some((v) => v === null) ? [] : [{ row, evo: evo as number[] }];
  });
  return Promise.all(
    scored.map(async ({ row, evo }): Promise<TaskScore> => {
      const folder = experimentLayout(experiment).task(row.task);
      const record = await readTaskRecord(folder);
      // The lines summarize read (scoring changes none of the agents' steps).
      const usage = lineUsageExtras(row.lines ?? []);
      const m = row.metrics;
      return {
        task: row.task,
        cluster: record?.task.repo ? `repo:${record.task.repo}` : `task:${row.task}`,
        evo,
        solved: m.solved ? 1 : 0,
        zeroRegression: m.zeroRegression ? 1 : 0,
        iterations: m.iterations,
        tokensIn: m.tokensIn,
        tokensOut: m.tokensOut,
        cached: usage.cached,
        cost: usage.cost,
        source: usage.source,
        wallSeconds: m.timeSec,
        flagged: m.scoreFlags.length > 0,
      };
    }),
  );
}

/** Cached tokens, dollars and the token counts' source over a run's agent steps. */
export function lineUsageExtras(lines: readonly IterationRecord[]): { cached: number; cost: number | null; source: TokenSource } {
  let cached = 0;
  let cost = 0;
  let priced = true;
  let agentSteps = 0;
  const sources = new Set<TokenSource>();
  for (const line of lines) {
    for (const step of [line.architect, line.programmer]) {
      if (!step || step.kind !== 'agent') continue;
      agentSteps++;
      cached += step.cached_tokens ?? 0;
      if (step.cost_usd === undefined) priced = false;
      else cost += step.cost_usd;
      if (step.usage_source === 'wire') sources.add('wire');
      else if (step.input_tokens !== undefined || step.output_tokens !== undefined) sources.add('agent-reported');
    }
  }
  return { cached, cost: priced && agentSteps > 0 ? cost : null, source: combineSources([...sources]) };
}

export function combineSources(sources: readonly TokenSource[]): TokenSource {
  const known = new Set(sources.filter((s) => s !== 'none'));
  if (known.size === 0) return 'none';
  if (known.size > 1 || known.has('mixed')) return 'mixed';
  return [...known][0];
}
