// An experiment's run of SWE-bench-style instances (a sequence's too) as the harness's files: per
// finished instance the prediction (the code the run ended with, as a diff against the instance's
// base commit, without the test patch's files, which the harness puts back itself) and the
// report graded from that iteration's own pytest run. Nothing is run again here.
import { loadReport } from '../../checkout/report-store';
import { experimentTaskIds, requireExperiment } from '../../batch/experiment';
import { readRun, ARCHIVE } from '../../loop/run-store';
import type { SweBenchInstance } from '../../task/swe-bench-instance';
import { UserError } from '../../util/errors';
import { gitRunner } from '../../util/git';
import { readTaskRecord } from '../../workspace/materialize';
import { experimentLayout } from '../../batch/experiment';
import type { TaskFolder } from '../../workspace/task-folder';
import type { TaskRecord } from '../../workspace/layout';
import { instanceReport, type InstanceResult, type Prediction } from './harness-files';
import * as path from 'node:path';
import { promises as fs } from 'node:fs';

export interface ExportedRun {
  run: string;
  model: string;
  /** Every instance of the experiment. */
  dataset: string[];
  predictions: Prediction[];
  results: Map<string, InstanceResult>;
}

/** Reads the run `run` (default: the experiment's) of the experiment at `dir`; `model` names the predictions (default: the run's name). */
export async function exportExperimentRun(dir: string, opts: { run?: string; model?: string } = {}): Promise<ExportedRun> {
  const record = await requireExperiment(dir);
  const run = opts.run ?? record.run;
  const model = opts.model ?? run;
  const layout = experimentLayout(dir);
  const dataset: string[] = [];
  const predictions: Prediction[] = [];
  const results = new Map<string, InstanceResult>();
  const runsSeen = new Set<string>();
  let unfinished = 0;
  for (const id of await experimentTaskIds(dir)) {
    const task = layout.task(id);
    const taskRecord = await readTaskRecord(task);
    if (taskRecord?.task.source.kind !== 'swe-bench') continue;
    const instance = taskRecord.task.source.instance;
    dataset.push(id);
    for (const name of await fs.readdir(task.runsDir).catch(() => [] as string[])) runsSeen.add(name);
    const found = await readRun(task, run);
    // No run (initialisation failed, or not started): no prediction, so incomplete, as in the harness.
    if (!found) continue;
    const { summary, records } = found;
    const finished = !summary.pending && (summary.solved || summary.iterations >= summary.info.maxIterations);
    const last = records[records.length - 1];
    if (!finished || !last || last.iteration === 0) {
      unfinished++;
      continue;
    }
    const patch = await modelPatch(task, taskRecord, summary.info.baseCommit, last.commit);
    predictions.push({ instance_id: id, model_name_or_path: model, model_patch: patch });
    results.set(id, await resultOf(task, run, last.iteration, patch, instance, last.pytest_error));
  }
  if (dataset.length === 0)
    throw new UserError(
      `${layout.dir} holds no SWE-bench-style instance: sweci export swe-bench exports runs of instances (sweci run --sequence, or tasks checked out with --instances).`,
    );
  if (!runsSeen.has(run)) throw new UserError(`${layout.dir} has no run "${run}" (its instances have: ${[...runsSeen].sort().join(', ') || 'no run yet'}).`);
  if (predictions.length === 0)
    throw new UserError(
      `${layout.dir} has no finished run "${run}" (${unfinished} unfinished): an instance's run is finished once solved or out of iterations. Finish it (run the same sweci run again), then export.`,
    );
  return { run, model, dataset, predictions, results };
}

async function resultOf(
  task: TaskFolder,
  run: string,
  iteration: number,
  patch: string,
  instance: SweBenchInstance,
  pytestError?: string,
): Promise<InstanceResult> {
  if (patch === '') return { kind: 'empty' };
  const report = await loadReport(path.join(task.run(run).iterationDir(iteration), ARCHIVE.report));
  if (!report) return { kind: 'error', patch, reason: `pytest did not run on iteration ${iteration}, the run's last${pytestError ? `: ${pytestError}` : ''}` };
  return { kind: 'graded', patch, report: instanceReport(report, instance) };
}

/**
 * The diff from the run's base to `commit` in the task's history store, leaving out the test
 * patch's files (the run's base already holds the test patch; the harness applies it after the
 * model's patch). Binary files are in git's binary form, which git apply takes.
 */
async function modelPatch(task: TaskFolder, record: TaskRecord, base: string, commit: string): Promise<string> {
  const git = gitRunner(task.historyDir, { env: { GIT_DIR: task.historyDir } });
  const excluded = (record.testPaths ?? []).map((p) => `:(exclude,literal)${p}`);
  return git.raw(['diff', '--binary', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', base, commit, '--', ...excluded]);
}
