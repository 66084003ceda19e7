// Where a replayed run finds the model's answers: the calls the gateway recorded for one run of a
// task, by iteration, role and try. Replayed in the same task folder (the editor's Replay Run)
// the recording is used as it is; in another folder (sweci run --replay-from) its paths are moved
// to that folder's. A try the recorded run made without any model call (its log is there, its calls
// are not: a do-nothing agent) replays as an empty recording: it runs again as it is, and a model
// call it makes now diverges. A try the recorded run never made is undefined: the driver then
// refuses to run it rather than call a live model.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ReplaySource } from '../agents/model-access';
import { moveRecording } from '../gateway/move-recording';
import { readGatewayCalls } from '../records/gateway-call';
import { ARCHIVE } from './run-store';
import { iterationDirName } from '../workspace/task-folder';
import type { TaskFolder } from '../workspace/task-folder';
import { CALLS_SUFFIX } from '../agents/model-route';

export function replayFromRun(recorded: TaskFolder, run: string, into: TaskFolder = recorded): ReplaySource {
  const runDir = recorded.run(run).dir;
  return async ({ iteration, role, try: tryNumber }) => {
    const dir = path.join(runDir, iterationDirName(iteration));
    const calls = await readGatewayCalls(path.join(dir, ARCHIVE.agentCalls(role, tryNumber)));
    if (calls.length === 0) return (await exists(path.join(dir, ARCHIVE.agentLog(role, tryNumber)))) ? [] : undefined;
    return path.resolve(recorded.root) === path.resolve(into.root) ? calls : moveRecording(calls, recorded.root, into.root);
  };
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/** Whether a run's first iteration holds a calls record of either role (it can be replayed); looked up by name, nothing read. */
export async function hasRecordedCalls(task: TaskFolder, run: string): Promise<boolean> {
  const names = await fs.readdir(path.join(task.run(run).dir, iterationDirName(1))).catch(() => [] as string[]);
  return names.some((n) => n.endsWith(CALLS_SUFFIX));
}
