// Where a replayed run (--replay-from) finds the model's answers: the recording of the same task,
// iteration, role and try in another experiment's run, as its gateway wrote it. A try with no
// recording is undefined: the driver then refuses to run it rather than call a live model.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { ReplaySource } from '../agents/model-access';
import { readGatewayCalls } from '../records/gateway-call';
import { moveRecording } from '../gateway/move-recording';
import { ARCHIVE, iterDirName, runLayout } from '../loop/run-store';
import { UserError } from '../util/errors';
import { experimentLayout, readExperiment } from './experiment';

/** The recording of `taskId` in the experiment `fromDir` (its own run), moved to the task folder `taskDir` it replays in. */
export async function replaySourceFor(fromDir: string, taskId: string, taskDir: string): Promise<ReplaySource> {
  const experiment = await readExperiment(fromDir);
  if (!experiment) {
    throw new UserError(`--replay-from ${fromDir}: no experiment there (no sweci-experiment.json). Name the folder of the run to replay.`);
  }
  const recordedDir = experimentLayout(fromDir).taskDir(taskId);
  if (!existsSync(recordedDir)) throw new UserError(`--replay-from ${fromDir}: it has no task ${taskId}; replay only the tasks it ran (--tasks).`);
  const runDir = runLayout(recordedDir, experiment.run).dir;
  return async ({ iteration, role, attempt }) => {
    const file = path.join(runDir, iterDirName(iteration), ARCHIVE.agentCalls(role, attempt));
    const calls = await readGatewayCalls(file);
    return calls.length > 0 ? moveRecording(calls, recordedDir, taskDir) : undefined;
  };
}
