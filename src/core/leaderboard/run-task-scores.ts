// One run's numbers per task, as `sweci summarize` computes them (summarizeExperiment with the
// same N and scoring rules, usage included: cached tokens, dollars, where the token counts come
// from), plus each task's repository (the bootstrap's cluster).
import { experimentLayout, type ExperimentRecord } from '../batch/experiment';
import { summarizeExperiment, type ExperimentSummary, type SummaryRow } from '../batch/experiment-summary';
import type { ScoringRules } from '../../shared/metrics/scored-line';
import { lookCache, type ExperimentCache } from '../scoring/experiment-summary-cache';
import type { TokenSource } from '../scoring/usage-extras';
import { readTaskRecord } from '../workspace/task-record';

export type { TokenSource };

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
  /** The experiment's record as the look read it (resolveRuns): not read again. */
  record?: ExperimentRecord;
  /** What one leaderboard has read already, shared by its runs: an experiment with two ranked runs is read once. */
  shared?: SharedReads;
}

/** Each experiment's summary and each task's cluster, by folder, as first asked for, and its summary cache as the look opened it. */
export interface SharedReads {
  summaries: Map<string, Promise<ExperimentSummary>>;
  clusters: Map<string, Promise<string>>;
  caches: Map<string, ExperimentCache>;
}

export function sharedReads(): SharedReads {
  return { summaries: new Map(), clusters: new Map(), caches: new Map() };
}

function once<T>(memo: Map<string, Promise<T>> | undefined, key: string, read: () => Promise<T>): Promise<T> {
  if (!memo) return read();
  let p = memo.get(key);
  if (!p) memo.set(key, (p = read()));
  return p;
}

/** The run's scored tasks (those with a baseline, as the summary's EvoScore means count them), in the summary's task order. */
export async function runTaskScores(experiment: string, run: string, opts: RunScoresOptions): Promise<TaskScore[]> {
  // Every run of the experiment is summarized (the rows of one run do not depend on the others), so the next run asked for is there already.
  const summary = await once(opts.shared?.summaries, experiment, () =>
    summarizeExperiment(experiment, {
      gammas: opts.gammas,
      maxEpoch: opts.maxEpoch,
      scoring: opts.scoring,
      usage: true,
      repository: true,
      ...(opts.record ? { record: opts.record } : {}),
      ...(opts.shared ? { cache: lookCache(opts.shared.caches, experiment) } : {}),
    }),
  );
  const group = summary.groups.find((g) => g.run === run);
  // The scored tasks, in the summary's order.
  const scored = (group?.rows ?? []).flatMap((row) => {
    // summarize puts γ = 1 first, then the others in the order given.
    const evo = opts.gammas.map((g) => row.evo[summary.gammas.indexOf(g)]);
    return evo.some((v) => v === null) ? [] : [{ row, evo: evo as number[] }];
  });
  // The summary has task.json's repository (from the runs' caches when they hold): the cluster
  // without a promise per task (thousands at the paper's scale). When it could not read the
  // record, the record is read here, and its error says what is wrong.
  const clusterOf = (repo: string | null | undefined, task: string) => (repo ? `repo:${repo}` : `task:${task}`);
  const scores: TaskScore[] = [];
  for (const { row, evo } of scored) {
    const cluster =
      row.repository !== undefined
        ? clusterOf(row.repository, row.task)
        : await once(opts.shared?.clusters, `${experiment}\0${row.task}`, async () =>
            clusterOf((await readTaskRecord(experimentLayout(experiment).task(row.task)))?.task.repo, row.task),
          );
    scores.push(taskScore(row, evo, cluster));
  }
  return scores;
}

/** A summary row as the leaderboard counts it. */
function taskScore(row: SummaryRow, evo: number[], cluster: string): TaskScore {
  const usage = row.usage ?? { cached: 0, cost: null, source: 'none' as const };
  const m = row.metrics;
  return {
    task: row.task,
    cluster,
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
}

export { combineSources, lineUsageExtras } from '../scoring/usage-extras';
