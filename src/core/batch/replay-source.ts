// Where a replayed run (--replay-from) finds the model's answers: the recording of the same task
// in another experiment's run (loop/run-replay.ts), its paths moved to this experiment's.
import { existsSync } from 'node:fs';
import type { ReplaySource } from '../agents/model-access';
import { replayFromRun } from '../loop/run-replay';
import { UserError } from '../util/errors';
import { experimentLayout, requireExperiment } from './experiment';
import type { TaskFolder } from '../workspace/task-folder';

/** The recording of `taskId` in the experiment `fromDir` (its own run), moved to the task folder `task` it replays in. */
export async function replaySourceFor(fromDir: string, taskId: string, task: TaskFolder): Promise<ReplaySource> {
  const experiment = await requireExperiment(fromDir).catch((err: unknown) => {
    throw err instanceof UserError ? new UserError(`--replay-from: ${err.message}`) : err;
  });
  const recordedDir = experimentLayout(fromDir).task(taskId);
  if (!existsSync(recordedDir.root)) throw new UserError(`--replay-from ${fromDir}: it has no task ${taskId}; replay only the tasks it ran (--tasks).`);
  return replayFromRun(recordedDir, experiment.run, task);
}
