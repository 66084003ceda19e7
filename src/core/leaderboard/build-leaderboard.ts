// The leaderboard: entries (repeats of one label merged), their scores over the ranked tasks,
// bootstrap intervals, ranks at every γ, pairs, groups and the cost frontier, as the one record
// (leaderboard-record.ts) every view shows. Reads through run-task-scores.ts; the statistics are
// the pure modules beside it.
import type { ScoringRules } from '../../shared/metrics/scored-line';
import { plural } from '../util/plural';
import { UserError } from '../util/errors';
import { clusterBootstraps } from './cluster-bootstrap';
import { datasetKey, type ResolvedRun } from './leaderboard-inputs';
import type { LeaderboardEntry, LeaderboardPair, LeaderboardRecord, TasksPolicy } from '../../shared/leaderboard-record';
import { pairedDifferences } from './paired-difference';
import { costFrontier, groupsInOrder, rankEntries } from './ranking';
import { combineSources, runTaskScores, sharedReads, type SharedReads, type TaskScore } from './run-task-scores';

export const DEFAULT_GAMMAS = ['0.8', '0.9', '1', '1.1', '1.2'];
export const DEFAULT_RESAMPLES = 10000;

export interface LeaderboardOptions {
  /** γ keys as written (gammaKeySchema), "1" among them. */
  gammas: readonly string[];
  resamples: number;
  seed: number;
  tasksPolicy: TasksPolicy;
  maxEpoch?: number;
  scoring: ScoringRules;
  /** What this look has read already (resolveRuns opened the experiments' caches); default a fresh look. */
  shared?: SharedReads;
}

/** One entry while it is built: its repeats' runs and its per-task scores (the repeats' mean). */
interface Draft {
  runs: ResolvedRun[];
  /** Per repeat: task → score. */
  repeats: Map<string, TaskScore>[];
  /** Tasks every repeat scored, in task order, with the repeats' mean. */
  scores: Map<string, TaskScore>;
}

export async function buildLeaderboard(runs: readonly ResolvedRun[], opts: LeaderboardOptions): Promise<LeaderboardRecord> {
  const gammaValues = opts.gammas.map(Number);
  const one = opts.gammas.indexOf('1');
  if (one < 0) throw new Error('the gammas must include "1"');
  const maxEpoch = opts.maxEpoch ?? commonMaxIterations(runs);
  const notes: string[] = [];
  const datasets = [...new Set(runs.map((r) => datasetKey(r.record)))];
  if (datasets.length > 1) {
    if (opts.tasksPolicy !== 'union')
      throw new UserError(
        `The experiments are over different datasets or splits (${datasets.join('; ')}): their scores are not comparable task by task. Give experiments of one dataset, or --tasks-policy union to rank each on its own tasks.`,
      );
    notes.push(`The entries come from different datasets or splits (${datasets.join('; ')}); each is ranked on its own tasks.`);
  }

  // Entries: runs sharing a label are repeats of one entry, in the order first given.
  const drafts = new Map<string, Draft>();
  // The runs are read side by side (reading is mostly waiting on the disk), then taken in order.
  const shared = opts.shared ?? sharedReads();
  const read = await Promise.all(
    runs.map((run) => runTaskScores(run.experiment, run.run, { gammas: gammaValues, maxEpoch, scoring: opts.scoring, record: run.record, shared })),
  );
  for (const [i, run] of runs.entries()) {
    const scores = read[i];
    const draft: Draft = drafts.get(run.label) ?? { runs: [], repeats: [], scores: new Map<string, TaskScore>() };
    draft.runs.push(run);
    draft.repeats.push(new Map(scores.map((s) => [s.task, s])));
    drafts.set(run.label, draft);
  }
  for (const d of drafts.values()) d.scores = repeatMeans(d.repeats);
  const allTasks = [...new Set([...drafts.values()].flatMap((d) => [...d.scores.keys()]))].sort();
  const common = allTasks.filter((t) => [...drafts.values()].every((d) => d.scores.has(t)));
  if (opts.tasksPolicy === 'common' && common.length === 0)
    throw new UserError(
      `No task is scored by every entry (${[...drafts.keys()].join(', ')}): there is nothing to rank them on together. Use --tasks-policy union to rank each on its own tasks.`,
    );
  const ranked = opts.tasksPolicy === 'common' ? common : allTasks;
  if (opts.tasksPolicy === 'union')
    notes.push('Tasks policy union: each entry is ranked on its own tasks, so the entries may not be scored on the same tasks.');

  const clusters = new Set<string>();
  const entries = [...drafts.entries()].map(([label, d]) => {
    const own = ranked.filter((t) => d.scores.has(t)).map((t) => d.scores.get(t)!);
    for (const s of own) clusters.add(s.cluster);
    const missing = opts.tasksPolicy === 'common' ? allTasks.filter((t) => !d.scores.has(t)) : ranked.filter((t) => !d.scores.has(t));
    if (missing.length > 0)
      notes.push(
        opts.tasksPolicy === 'common'
          ? `${label} has no score on ${plural(missing.length, 'task')} some other entry scored (${missing.join(', ')}): they are left out of every entry's ranking.`
          : `${label} has no score on ${plural(missing.length, 'task')} (${missing.join(', ')}).`,
      );
    return { label, draft: d, own, missing };
  });
  // The intervals resample repositories: with one, every resample is the sample itself.
  if (clusters.size === 1)
    notes.push(
      `Every ranked task comes from one repository: resampled together, they give intervals of zero width, which show no uncertainty between tasks (rank tasks of several repositories for intervals that do).`,
    );
  else if (clusters.size < 5)
    notes.push(`The ranked tasks come from only ${clusters.size} repositories: intervals from so few clusters are rough, and likely too narrow.`);
  // Missing in `common` means: scored by some entry, left out of the ranking because this entry lacks it.
  // Every entry's intervals at once: entries over the same tasks share one pass of the bootstrap.
  const intervals = clusterBootstraps(
    entries.map(({ own }) => own.map((s) => ({ cluster: s.cluster, values: [s.evo[one], s.solved, s.zeroRegression] }))),
    { resamples: opts.resamples, seed: opts.seed },
  );
  const built: Array<Omit<LeaderboardEntry, 'rankMove' | 'group' | 'onCostFrontier'>> = entries.map(({ label, draft, own, missing }, e) => {
    const first = draft.runs[0];
    const evoScore = Object.fromEntries(opts.gammas.map((g, i) => [g, mean(own.map((s) => s.evo[i]))]));
    const [evoCI, solvedCI, zeroCI] = intervals[e];
    const costs = own.map((s) => s.cost);
    return {
      label,
      provider: draft.runs.find((r) => r.provider !== null)?.provider ?? null,
      released: draft.runs.find((r) => r.released !== null)?.released ?? null,
      kind: first.kind,
      experiments: draft.runs.map((r) => ({ experiment: r.experiment, run: r.run })),
      tasks: own.length,
      missing,
      taskScores: Object.fromEntries(own.map((s) => [s.task, s.evo[one]])),
      evoScore,
      evoScoreCI95: evoCI,
      solvedRate: mean(own.map((s) => s.solved)),
      solvedCI95: solvedCI,
      zeroRegressionRate: mean(own.map((s) => s.zeroRegression)),
      zeroRegressionCI95: zeroCI,
      meanIterations: mean(own.map((s) => s.iterations)),
      tokensPerTask: {
        input: mean(own.map((s) => s.tokensIn)),
        output: mean(own.map((s) => s.tokensOut)),
        cached: mean(own.map((s) => s.cached)),
        source: combineSources(own.map((s) => s.source)),
      },
      costPerTask: own.length > 0 && costs.every((c) => c !== null) ? mean(costs) : null,
      wallSecondsPerTask: mean(own.map((s) => s.wallSeconds)),
      flaggedTasks: own.filter((s) => s.flagged).length,
      spread: {
        betweenRepeats: draft.repeats.length > 1 ? stdev(draft.repeats.map((r) => mean(own.map((s) => r.get(s.task)!.evo[one])))) : null,
        betweenTasks: stdev(own.map((s) => s.evo[one])),
      },
    };
  });
  for (const e of built) {
    if (e.flaggedTasks > 0)
      notes.push(
        `${e.label}: ${plural(e.flaggedTasks, 'task')} ${e.flaggedTasks === 1 ? 'carries' : 'carry'} an integrity flag (their scores are in doubt; counted as sweci summarize counts them).`,
      );
    if (e.tokensPerTask.source === 'agent-reported' || e.tokensPerTask.source === 'mixed')
      notes.push(`${e.label}: tokens ${e.tokensPerTask.source === 'mixed' ? 'partly ' : ''}as the agents reported them (not counted at the gateway).`);
  }

  // Table order: best first at γ = 1 (ties by label), as the γ = 1 ranking lists them.
  const ranks = Object.fromEntries(
    opts.gammas.map((g) => [
      g,
      rankEntries(built.map((e) => ({ label: e.label, score: e.evoScore[g] }))).map((r) => ({ label: r.label, rank: r.rank, evoScore: r.score })),
    ]),
  );
  const order = ranks['1'].map((r) => built.find((e) => e.label === r.label)!);
  const byLabel = new Map(entries.map((e) => [e.label, e]));
  const labelPairs: Array<[string, string]> = [];
  for (let i = 0; i < order.length; i++) for (let j = i + 1; j < order.length; j++) labelPairs.push([order[i].label, order[j].label]);
  const at = (label: string) => byLabel.get(label)!.own.map((s) => ({ task: s.task, cluster: s.cluster, score: s.evo[one] }));
  // All pairs at once: those over the same tasks share one pass of the bootstrap.
  const differences = pairedDifferences(
    labelPairs.map(([a, b]) => [at(a), at(b)] as const),
    { resamples: opts.resamples, seed: opts.seed },
  );
  const pairs: LeaderboardPair[] = labelPairs.map(([a, b], i) => {
    const d = differences[i];
    return { a, b, meanDiff: d.meanDiff, ci95: d.ci95, distinguishable: d.distinguishable };
  });
  const pair = (a: string, b: string) => pairs.find((p) => p.a === a && p.b === b)!;
  const groups = groupsInOrder(order.length, (i) => pair(order[i - 1].label, order[i].label).distinguishable);
  const frontier = costFrontier(order.map((e) => ({ score: e.evoScore['1'], cost: e.costPerTask })));
  const lowest = opts.gammas[gammaValues.indexOf(Math.min(...gammaValues))];
  const highest = opts.gammas[gammaValues.indexOf(Math.max(...gammaValues))];
  const rankOf = (g: string, label: string) => ranks[g].find((r) => r.label === label)!.rank;
  return {
    schema: 1,
    gammas: [...opts.gammas],
    tasksPolicy: opts.tasksPolicy,
    tasks: ranked,
    maxEpoch,
    bootstrap: { resamples: opts.resamples, seed: opts.seed, clusters: 'repository', repositories: clusters.size },
    entries: order.map((e, i) => ({ ...e, rankMove: rankOf(lowest, e.label) - rankOf(highest, e.label), group: groups[i], onCostFrontier: frontier[i] })),
    ranks,
    pairs,
    notes,
  };
}

/** The tasks every repeat scored, each the repeats' mean (one repeat: its own numbers, unchanged). */
function repeatMeans(repeats: ReadonlyArray<Map<string, TaskScore>>): Map<string, TaskScore> {
  if (repeats.length === 1) return repeats[0];
  const out = new Map<string, TaskScore>();
  for (const [task, first] of repeats[0]) {
    const all = repeats.map((r) => r.get(task));
    if (all.some((s) => s === undefined)) continue;
    const ss = all as TaskScore[];
    const avg = (f: (s: TaskScore) => number) => mean(ss.map(f));
    const costs = ss.map((s) => s.cost);
    out.set(task, {
      task,
      cluster: first.cluster,
      evo: first.evo.map((_, i) => avg((s) => s.evo[i])),
      solved: avg((s) => s.solved),
      zeroRegression: avg((s) => s.zeroRegression),
      iterations: avg((s) => s.iterations),
      tokensIn: avg((s) => s.tokensIn),
      tokensOut: avg((s) => s.tokensOut),
      cached: avg((s) => s.cached),
      cost: costs.every((c) => c !== null) ? mean(costs) : null,
      source: combineSources(ss.map((s) => s.source)),
      wallSeconds: avg((s) => s.wallSeconds),
      flagged: ss.some((s) => s.flagged),
    });
  }
  return out;
}

function commonMaxIterations(runs: readonly ResolvedRun[]): number {
  const ns = [...new Set(runs.map((r) => r.record.maxIterations))];
  if (ns.length > 1)
    throw new UserError(
      `The experiments ran different maximum iterations (${runs.map((r) => `${r.experiment}: ${r.record.maxIterations}`).join(', ')}): give --max-epoch N to score them all over the same N.`,
    );
  return ns[0];
}

/** The mean as `sweci summarize` takes it (a sum in task order, then one division), so the two agree to the last digit. */
function mean(values: readonly number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
}

/** The sample standard deviation (n − 1); 0 below two values. */
function stdev(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1));
}
