// `sweci summarize`: the reference's table over an experiment's tasks (EvoScore(γ=1), solved,
// zero regression, and their averages), with EvoScore at more γ values, regressions, tokens
// and time. Each row is the chart's own row for that run (the chart's run with the experiment's
// N, through the per-run summary cache: scoring/run-scores.ts), so the terminal and the editor
// never disagree.
import type { ChartRunKind, RunMetricsRow } from '../scoring/load-chart-data';
import { openExperimentCache, type ExperimentCache } from '../scoring/experiment-summary-cache';
import { loadRunScores } from '../scoring/run-scores';
import type { UsageExtras } from '../scoring/usage-extras';
import { evoScore } from '../../shared/metrics/evo-score';
import type { RunFlag } from '../../shared/metrics/run-flags';
import type { ScoringRules } from '../../shared/metrics/scored-line';
import { averageMetrics, type RunMetricsAverage } from '../../shared/metrics/run-metrics';
import { promises as fs } from 'node:fs';
import { experimentLayout, experimentTasks, readExperiment, type ExperimentRecord } from './experiment';
import { readTaskStatus } from './task-status';
import { type TaskState } from '../records/task-status-file';

export interface SummaryOptions {
  /** γ values besides 1 (always reported, as the reference's EvoScore). */
  gammas?: readonly number[];
  /** Only this run; default every run of the experiment's tasks, grouped by name. */
  run?: string;
  /** N (the reference's max_epoch); default the experiment's maxIterations, else each task's chart N. */
  maxEpoch?: number;
  scoring?: ScoringRules;
  /** Each row also carries its run's usage beyond the metrics (the leaderboard's; the summary's own output leaves it out). */
  usage?: boolean;
  /** Each row also carries its task's repository (the leaderboard's cluster; the summary's own output leaves it out). */
  repository?: boolean;
  /** The experiment's record as this look read it (the leaderboard's resolveRuns did); default read here. */
  record?: ExperimentRecord;
  /** The experiment's summary cache as this look opened it (the leaderboard asked it about runs first); default opened here. */
  cache?: ExperimentCache;
}

export interface SummaryRow {
  task: string;
  metrics: RunMetricsRow;
  /** EvoScore by γ, in the order of `gammas`. */
  evo: (number | null)[];
  /** The run's integrity flags (metrics/run-flags.ts): a flagged row's scores are in doubt. */
  flags: RunFlag[];
  /** Cached tokens, dollars and where the token counts come from (from the lines, never the agents' logs), when asked for (`usage`). */
  usage?: UsageExtras;
  /**
   * task.json's repository (null when it names none), when asked for (`repository`); absent too
   * when task.json does not read as a task record (whoever needs it reads it and says why).
   */
  repository?: string | null;
}

export interface SummaryGroup {
  run: string;
  kind: ChartRunKind;
  rows: SummaryRow[];
  average: RunMetricsAverage;
  /** Mean EvoScore by γ over rows that have one. */
  averageEvo: (number | null)[];
}

export interface ExperimentSummary {
  experiment: string;
  /** The experiment's own run, listed first (undefined for a folder of tasks made elsewhere). */
  run?: string;
  gammas: number[];
  maxEpoch?: number;
  groups: SummaryGroup[];
  /** Tasks with no scored run, and why (e.g. initialisation failed, as the reference drops them). */
  unscored: { task: string; state?: TaskState; reason: string }[];
  /** Scored tasks whose run a spent budget stopped: their scores count the iterations they ran. */
  stopped: { task: string; state: TaskState; reason: string }[];
}

export async function summarizeExperiment(dir: string, opts: SummaryOptions = {}): Promise<ExperimentSummary> {
  const experiment = opts.record ?? (await readExperiment(dir));
  const gammas = [1, ...(opts.gammas ?? []).filter((g) => g !== 1)];
  const maxEpoch = opts.maxEpoch ?? experiment?.maxIterations;
  const groups = new Map<string, SummaryGroup>();
  const unscored: ExperimentSummary['unscored'] = [];
  const stopped: ExperimentSummary['stopped'] = [];
  const layout = experimentLayout(dir);
  // Each task with task.json's identity from the stat that found it: the runs' keys take it as is.
  const tasks = await experimentTasks(dir);
  const taskIds = new Set(tasks.map((t) => t.id));
  // Every task's runs' caches in one file (scoring/experiment-summary-cache.ts), written once after the look.
  const cache = opts.cache ?? openExperimentCache(layout.dir);
  const scoring = { gamma: 1, ...(maxEpoch ? { maxIterations: maxEpoch } : {}), ...(opts.scoring ? { scoring: opts.scoring } : {}) };
  for (const { id, taskFile } of tasks) {
    // The status comes with the runs (from their caches when they hold): read once per task.
    const scores = loadRunScores(layout.task(id), { ...scoring, statusFile: layout.statusFile(id), taskFile, store: cache.store(id) });
    const status = scores.task.status;
    const runs = scores.runs.filter((r) => (opts.run ? r.run === opts.run : true) && r.lines > 0);
    if (runs.length === 0) {
      unscored.push({ task: id, ...(status ? { state: status.state } : {}), reason: status?.reason ?? (opts.run ? `no run named ${opts.run}` : 'no run yet') });
      continue;
    }
    if (status?.state === 'budget-exhausted') stopped.push({ task: id, state: status.state, reason: status.reason ?? status.state });
    for (const r of runs) {
      let group = groups.get(r.run);
      if (!group) {
        group = { run: r.run, kind: r.kind, rows: [], average: averageMetrics([]), averageEvo: [] };
        groups.set(r.run, group);
      }
      group.rows.push({
        task: id,
        metrics: r.metrics,
        evo: gammas.map((g) => (r.baseline ? evoScore(r.evoA, g) : null)),
        flags: r.flags,
        ...(opts.usage ? { usage: r.usage } : {}),
        ...(opts.repository && scores.task.task ? { repository: scores.task.task.repo } : {}),
      });
    }
  }
  cache.save();
  // Tasks the batch tried but could not check out have a state and no folder.
  for (const status of await statusesWithoutFolder(dir, taskIds)) unscored.push(status);
  for (const g of groups.values()) {
    g.average = averageMetrics(g.rows.map((r) => r.metrics));
    g.averageEvo = gammas.map((_, i) => mean(g.rows.map((r) => r.evo[i])));
  }
  const ordered = [...groups.values()].sort((a, b) => rank(a, experiment?.run) - rank(b, experiment?.run) || a.run.localeCompare(b.run));
  return { experiment: dir, ...(experiment ? { run: experiment.run } : {}), gammas, ...(maxEpoch ? { maxEpoch } : {}), groups: ordered, unscored, stopped };
}

function rank(g: SummaryGroup, own: string | undefined): number {
  return g.run === own ? 0 : g.kind === 'human-history' ? 2 : 1;
}

function mean(values: (number | null)[]): number | null {
  const vs = values.filter((v): v is number => v !== null);
  return vs.length ? vs.reduce((s, v) => s + v, 0) / vs.length : null;
}

async function statusesWithoutFolder(dir: string, withFolder: Set<string>): Promise<ExperimentSummary['unscored']> {
  const names = await fs.readdir(experimentLayout(dir).statusDir).catch(() => [] as string[]);
  const out: ExperimentSummary['unscored'] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.json')) continue;
    const id = name.slice(0, -'.json'.length);
    if (withFolder.has(id)) continue;
    const status = await readTaskStatus(dir, id);
    if (status) out.push({ task: id, state: status.state, reason: status.reason ?? status.state });
  }
  return out;
}
