// What the leaderboard ranks: `experiment[#run]` arguments and leaderboard.json entries, checked
// and resolved into the runs to read, each with its experiment record. Every bad input is a
// UserError raised before anything is computed (the leaderboard writes nothing anyway).
import { promises as fs } from 'node:fs';
import { listSchemaIssues } from '../records/schema-problem';
import * as path from 'node:path';
import { experimentLayout, experimentTaskCandidates, experimentTaskIds, requireExperiment, type ExperimentRecord } from '../batch/experiment';
import { HUMAN_HISTORY_RUN } from '../loop/run-name';
import { listRuns, readRunSummary } from '../loop/run-store';
import { lookCache, type ExperimentCache } from '../scoring/experiment-summary-cache';
import { recordsKey, taskKey } from '../scoring/run-summary-cache';
import { UserError, errorMessage } from '../util/errors';
import { regularFileIdentity } from '../util/file-identity';
import { leaderboardFileSchema, type LeaderboardFile } from '../../shared/leaderboard-record';

/** One experiment and run as asked for, before it is read. */
export interface RunArgument {
  experiment: string;
  run?: string;
  label?: string;
  provider?: string;
  released?: string;
}

/** A run to read: its experiment (absolute), its record and who it stands for. */
export interface ResolvedRun {
  experiment: string;
  record: ExperimentRecord;
  run: string;
  kind: 'agent' | 'human-history';
  label: string;
  /** The label came from leaderboard.json (only such labels make repeats). */
  labelGiven: boolean;
  provider: string | null;
  released: string | null;
}

/** "runs/opus#human-history" → the folder and the run; the last # splits them. */
export function parseRunArgument(arg: string): RunArgument {
  const at = arg.lastIndexOf('#');
  if (at < 0) return { experiment: arg };
  const experiment = arg.slice(0, at);
  const run = arg.slice(at + 1);
  if (!experiment || !run) throw new UserError(`"${arg}" is not experiment#run: give a folder, then # and a run name (e.g. runs/opus#human-history).`);
  return { experiment, run };
}

/** leaderboard.json, checked against its schema (a bad field is named by its path); folders are relative to the file. */
export async function readLeaderboardFile(file: string): Promise<RunArgument[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`Cannot read the leaderboard file ${file}: ${errorMessage(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file} is not JSON: ${errorMessage(err)}`);
  }
  const parsed = leaderboardFileSchema.safeParse(json);
  if (!parsed.success) throw new UserError(`${file} is not a leaderboard file: ${listSchemaIssues(parsed.error)}`);
  const data: LeaderboardFile = parsed.data;
  return data.entries.map((e) => ({ ...e, experiment: path.resolve(path.dirname(file), e.experiment) }));
}

/**
 * Reads each request's experiment and checks its run. `withHuman` adds one human-history run per
 * dataset and split where an experiment holds one (unless it is asked for already).
 */
export async function resolveRuns(requests: readonly RunArgument[], withHuman: boolean, caches = new Map<string, ExperimentCache>()): Promise<ResolvedRun[]> {
  const runs: ResolvedRun[] = [];
  const seen = new Set<string>();
  for (const req of requests) {
    const experiment = path.resolve(req.experiment);
    const record = await requireExperiment(experiment);
    const run = req.run ?? record.run;
    const key = `${experiment}#${run}`;
    if (seen.has(key)) throw new UserError(`${experiment} run ${run} is given twice: give each experiment and run once.`);
    seen.add(key);
    if (!(await hasRun(experiment, run, caches))) {
      const names = await runNames(experiment);
      throw new UserError(`${experiment} has no run "${run}" (its tasks have: ${[...names].sort().join(', ') || 'no run yet'}).`);
    }
    const kind = run === HUMAN_HISTORY_RUN ? 'human-history' : 'agent';
    runs.push({
      experiment,
      record,
      run,
      kind,
      label: req.label ?? (kind === 'human-history' ? HUMAN_HISTORY_RUN : agentsLabel(record)),
      labelGiven: req.label !== undefined,
      provider: req.provider ?? null,
      released: req.released ?? null,
    });
  }
  if (withHuman) {
    const datasets = new Map<string, ResolvedRun>();
    for (const r of runs) {
      const dataset = datasetKey(r.record);
      if (datasets.has(dataset) || runs.some((o) => o.kind === 'human-history' && datasetKey(o.record) === dataset)) continue;
      if (!(await hasRun(r.experiment, HUMAN_HISTORY_RUN, caches))) continue;
      datasets.set(dataset, {
        ...r,
        run: HUMAN_HISTORY_RUN,
        kind: 'human-history',
        label: HUMAN_HISTORY_RUN,
        labelGiven: false,
        provider: null,
        released: null,
      });
    }
    // One dataset: "human-history"; several: each names its dataset.
    for (const h of datasets.values()) runs.push(datasets.size > 1 ? { ...h, label: `${HUMAN_HISTORY_RUN} · ${path.basename(h.record.dataset)}` } : h);
  }
  return distinctDefaultLabels(runs);
}

/**
 * Only a label the user gave makes repeats. Default labels (the agents) that two runs share, or
 * that a given label already holds, are told apart by the experiment's folder name (and run),
 * or by its whole path when the names are the same too.
 */
function distinctDefaultLabels(runs: readonly ResolvedRun[]): ResolvedRun[] {
  const given = new Set(runs.filter((r) => r.labelGiven).map((r) => r.label));
  const clashes = (r: ResolvedRun, all: readonly ResolvedRun[]) => !r.labelGiven && (given.has(r.label) || all.filter((o) => o.label === r.label).length > 1);
  const named = runs.map((r) =>
    clashes(r, runs) ? { ...r, label: `${r.label} · ${path.basename(r.experiment)}${r.run !== r.record.run ? `#${r.run}` : ''}` } : r,
  );
  return named.map((r, i) => (clashes(r, named) ? { ...r, label: `${runs[i].label} · ${r.experiment}#${r.run}` } : r));
}

/** The default label: the agents (one name when both roles ran the same). */
export function agentsLabel(record: ExperimentRecord): string {
  const { architect, programmer } = record.agents;
  return architect === programmer ? architect : `${architect} / ${programmer}`;
}

export function datasetKey(record: ExperimentRecord): string {
  return `${record.dataset} (split ${record.split})`;
}

/**
 * Whether some task of the experiment holds `run`, as runNames(dir).has(run) says, without
 * reading every run of every task: the tasks are tried in turn, and the first whose folder of
 * that name reads as that run answers yes (listRuns would list it); only when none does are all
 * of them listed. A folder is checked as a task only when it is tried (one stat, not one per
 * task). `caches`: the look's experiments' summary caches (experiment-summary-cache.ts), which
 * answer for a run whose records are as its entry was made from, without reading them.
 */
export async function hasRun(dir: string, run: string, caches = new Map<string, ExperimentCache>()): Promise<boolean> {
  const layout = experimentLayout(dir);
  for (const id of await experimentTaskCandidates(dir)) {
    // The stat that finds the task gives task.json's key too.
    const task = layout.task(id);
    const taskFile = regularFileIdentity(task.taskFile);
    if (taskFile === undefined) continue;
    const key = recordsKey(task.run(run), taskKey(task, layout.statusFile(id), taskFile));
    if (key.run === null) continue;
    // An entry is only made for records that read as that run: listRuns lists it.
    const info = lookCache(caches, layout.dir).entry(id, run, key)?.base.info ?? (await readRunSummary(task, run).catch(() => undefined))?.info;
    if (info?.name === run) return true;
  }
  return (await runNames(dir)).has(run);
}

/** Every run name any task of the experiment holds. */
async function runNames(dir: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (const id of await experimentTaskIds(dir)) for (const s of await listRuns(experimentLayout(dir).task(id))) names.add(s.info.name);
  return names;
}
