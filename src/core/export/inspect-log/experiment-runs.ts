// What an Inspect export reads of an experiment: each run's tasks as the chart scores them (with
// the experiment's N, as `sweci summarize` does), which runs are finished, and the bad inputs
// said before anything is written: no finished run, an unknown run, a run still going.
import * as path from 'node:path';
import { experimentLayout, experimentTaskIds, requireExperiment, type ExperimentRecord } from '../../batch/experiment';
import type { IterationRecord } from '../../loop/iteration-record';
import type { RunInfo } from '../../loop/run-store';
import { loadChartRunsSync } from '../../scoring/load-chart-data';
import { UserError } from '../../util/errors';
import { readTaskRecordSync } from '../../workspace/task-record';
import type { TaskRecord } from '../../workspace/task-record-schema';
import type { ScoringRules } from '../../../shared/metrics/scored-line';
import type { SampleSource } from './inspect-sample';

export interface ExperimentRun {
  name: string;
  info: RunInfo;
  /** The run's tasks that have lines, by task id. */
  tasks: SampleSource[];
}

export interface ExperimentRuns {
  dir: string;
  record: ExperimentRecord;
  gamma: number;
  maxIterations?: number;
  /** The runs to export, in the summary's order (the experiment's own first). */
  runs: ExperimentRun[];
  /** Runs left out, and why (still going, nothing scored yet). */
  skipped: Array<{ run: string; reason: string }>;
}

export interface ReadRunsOptions {
  run?: string;
  gamma?: number;
  scoring?: ScoringRules;
}

interface Collected {
  info: RunInfo;
  tasks: SampleSource[];
  /** Tasks whose run has an iteration in progress. */
  pending: string[];
  /** Tasks whose run has no completed iteration. */
  empty: string[];
}

function listed(names: readonly string[]): string {
  return names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
}

/** The experiment's runs to export; a UserError, before anything is written, when there is none or the one asked for cannot be. */
export async function readExperimentRuns(dir: string, opts: ReadRunsOptions = {}): Promise<ExperimentRuns> {
  const root = path.resolve(dir);
  const record = await requireExperiment(root);
  const gamma = opts.gamma ?? 1;
  const layout = experimentLayout(root);
  const byRun = new Map<string, Collected>();
  for (const id of await experimentTaskIds(root)) {
    const task = layout.task(id);
    // Synchronous reads, a turn of the event loop per task: an experiment is thousands of small
    // files, where a promise each cost more than reading them (the editor stays responsive between tasks).
    await new Promise<void>((resolve) => setImmediate(resolve));
    const { data, lines, infos } = loadChartRunsSync(task, {
      gamma,
      ...(record.maxIterations ? { maxIterations: record.maxIterations } : {}),
      ...(opts.scoring ? { scoring: opts.scoring } : {}),
    });
    let taskRecord: TaskRecord | undefined;
    try {
      taskRecord = readTaskRecordSync(task);
    } catch {
      taskRecord = undefined;
    }
    for (const run of data.runs) {
      const info = infos.get(run.run);
      if (!info) continue;
      let c = byRun.get(run.run);
      if (!c) byRun.set(run.run, (c = { info, tasks: [], pending: [], empty: [] }));
      const runLines: IterationRecord[] = lines.get(run.run) ?? [];
      if (run.pending) c.pending.push(id);
      else if (runLines.length < 2) c.empty.push(id);
      else c.tasks.push({ id, task, info, run, lines: runLines, record: taskRecord });
    }
  }
  const names = [...byRun.keys()].sort((a, b) => Number(b === record.run) - Number(a === record.run) || a.localeCompare(b));
  const skipped: ExperimentRuns['skipped'] = [];
  const runs: ExperimentRun[] = [];
  for (const name of names) {
    const c = byRun.get(name)!;
    if (opts.run !== undefined && name !== opts.run) continue;
    const why =
      c.pending.length > 0
        ? `it is still going in ${listed(c.pending)} (an iteration in progress): wait for it to finish, or stop it and run it again to complete it`
        : c.tasks.length === 0
          ? 'no task has a completed iteration in it yet'
          : undefined;
    if (why) skipped.push({ run: name, reason: why });
    else runs.push({ name, info: c.info, tasks: c.tasks });
  }
  if (opts.run !== undefined && !byRun.has(opts.run))
    throw new UserError(
      `${root} has no run named "${opts.run}"${names.length ? `; its runs: ${names.join(', ')}` : ' (no task has a run yet)'}. Give one of them with --run, or leave --run out to export every finished run.`,
    );
  if (runs.length === 0) {
    const reasons = skipped.map((s) => `${s.run}: ${s.reason}`).join('; ');
    throw new UserError(
      opts.run !== undefined
        ? `Run ${opts.run} of ${root} cannot be exported: ${skipped[0]?.reason ?? 'it has no task'}. Nothing was written.`
        : `${root} has no finished run to export${reasons ? ` (${reasons})` : ' (no task has a run yet)'}. Run the experiment first (sweci run --experiment ${root}), then export it. Nothing was written.`,
    );
  }
  return { dir: root, record, gamma, ...(record.maxIterations ? { maxIterations: record.maxIterations } : {}), runs, skipped };
}
