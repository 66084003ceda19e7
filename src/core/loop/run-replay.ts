// Where a replayed run finds the model's answers: the calls the gateway recorded for one run of a
// task, by iteration, role and try. Replayed in the same task folder (the editor's Replay Run)
// the recording is used as it is; in another folder (sweci run --replay-from) its paths are moved
// to that folder's. A try with no recording is undefined: the driver then refuses to run it
// rather than call a live model.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ReplaySource } from '../agents/model-access';
import { moveRecording } from '../gateway/move-recording';
import { readGatewayCalls } from '../records/gateway-call';
import { ARCHIVE, iterDirName } from './run-store';
import type { TaskFolder } from '../workspace/task-folder';

export function replayFromRun(recorded: TaskFolder, run: string, into: TaskFolder = recorded): ReplaySource {
  const runDir = recorded.run(run).dir;
  return async ({ iteration, role, attempt }) => {
    const calls = await readGatewayCalls(path.join(runDir, iterDirName(iteration), ARCHIVE.agentCalls(role, attempt)));
    if (calls.length === 0) return undefined;
    return path.resolve(recorded.root) === path.resolve(into.root) ? calls : moveRecording(calls, recorded.root, into.root);
  };
}

/** Whether a run's first iteration holds a calls record of either role (it can be replayed); looked up by name, nothing read. */
export async function hasRecordedCalls(task: TaskFolder, run: string): Promise<boolean> {
  const names = await fs.readdir(path.join(task.run(run).dir, iterDirName(1))).catch(() => [] as string[]);
  return names.some((n) => n.endsWith('.calls.jsonl'));
}
