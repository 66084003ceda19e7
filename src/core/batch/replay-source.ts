// Where a replayed run (--replay-from) finds the model's answers: the recording of the same task
// in another experiment's run (loop/run-replay.ts), its paths moved to this experiment's.
import { existsSync } from 'node:fs';
import type { ReplaySource } from '../agents/model-access';
import { replayFromRun } from '../loop/run-replay';
import { UserError } from '../util/errors';
import { experimentLayout, readExperiment } from './experiment';
import type { TaskFolder } from '../workspace/task-folder';

/** The recording of `taskId` in the experiment `fromDir` (its own run), moved to the task folder `task` it replays in. */
export async function replaySourceFor(fromDir: string, taskId: string, task: TaskFolder): Promise<ReplaySource> {
  const experiment = await readExperiment(fromDir);
  if (!experiment) {
    throw new UserError(`--replay-from ${fromDir}: no experiment there (no sweci-experiment.json). Name the folder of the run to replay.`);
  }
  const recordedDir = experimentLayout(fromDir).task(taskId);
  if (!existsSync(recordedDir.root)) throw new UserError(`--replay-from ${fromDir}: it has no task ${taskId}; replay only the tasks it ran (--tasks).`);
  return replayFromRun(recordedDir, experiment.run, task);
}
