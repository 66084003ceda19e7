// sweci run: the benchmark over a dataset, headless. Each task is checked out into the
// experiment folder and its loop runs with the same core as the editor; running the same
// command again continues what is unfinished and skips what is done.
import { assertEndpointsAnswer } from '../../core/agents/endpoint/endpoint-check';
import { plural } from '../../core/util/plural';
import * as path from 'node:path';
import type { BatchEvent } from '../../core/batch/batch-types';
import { openExperiment, runBatch } from '../../core/batch/run-batch';
import { selectTasks } from '../../core/batch/select-tasks';
import { FINISHED_STATES, type TaskStatus } from '../../core/records/task-status-file';
import { listSplits, readDatasetTasks } from '../../core/task/dataset';
import { UserError } from '../../core/util/errors';
import { commaList } from '../../core/util/setting-reader';
import { openBatchDisplay } from '../batch-display';
import { sequenceCommand } from './sequence-command';
import { batchSettingsOf, defaultRunName, readHeadlessSettings, refuseUnconfined, type RunValues } from './run-settings';

export type { RunValues };

export async function runCommand(values: RunValues, signal: AbortSignal): Promise<number> {
  if (values.sequence) return sequenceCommand(values, signal);
  for (const flag of ['memory', 'zeroShot', 'sequenceId', 'repo', 'repos'] as const)
    if (values[flag])
      throw new UserError(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} belongs to a sequence run: give --sequence <file> too, or leave it out.`);
  if (!values.dataset) throw new UserError('run needs --dataset <dir>: a SWE-CI dataset folder (metadata/<split>.csv and data/<task_id>/code.zip).');
  if (!values.experiment) throw new UserError('run needs --experiment <dir>: the folder the tasks and their runs are written to (created if missing).');
  const experimentDir = path.resolve(values.experiment);
  const settings = await readHeadlessSettings(values);
  const workers = Number(values.workers ?? '1');
  if (!Number.isInteger(workers) || workers < 1) throw new UserError(`--workers must be a whole number of 1 or more, not "${values.workers}".`);

  const datasetDir = path.resolve(values.dataset);
  const split = values.split ?? (await listSplits(datasetDir))[0];
  const all = await readDatasetTasks(datasetDir, split);
  const index = values.taskIndex === undefined ? undefined : Number(values.taskIndex);
  if (index !== undefined && !Number.isInteger(index)) throw new UserError(`--task-index must be a whole number, not "${values.taskIndex}".`);
  const specs = await selectTasks(
    all,
    {
      ids: values.tasks ? commaList(values.tasks) : undefined,
      idsFile: values.tasksFile,
      index,
    },
    `${datasetDir} (split ${split})`,
  );
  const run = await defaultRunName(values, experimentDir, settings.agents);
  const display = openBatchDisplay({ json: !!values.json, tasks: specs.map((s) => s.id), workers });
  const batch = batchSettingsOf(values, settings, {
    experimentDir,
    run,
    humanHistory: !!values.humanHistory,
    signal,
    onEvent: (e: BatchEvent) => display.event(e),
  });
  // Before any task is checked out: unconfined agents, or an endpoint that does not answer, stop the run here.
  await refuseUnconfined(values, settings);
  // A replay calls no model: its endpoint need not answer.
  if (!batch.replayFrom) await assertEndpointsAnswer(settings.agents, batch.secretEnv, signal);
  await openExperiment(batch, { dataset: datasetDir, split });
  display.start(`${plural(specs.length, 'task')} · run ${run} · ${plural(workers, 'worker')} · ${experimentDir}`);
  let statuses: TaskStatus[];
  try {
    statuses = await runBatch(specs, batch, workers);
  } finally {
    display.stop();
  }
  display.final(statuses);
  if (signal.aborted) return 130;
  return statuses.every((s) => FINISHED_STATES.includes(s.state)) ? 0 : 1;
}
