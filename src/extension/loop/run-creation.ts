// Creating the run a loop command records into when it does not exist yet, and removing it
// again when the call that created it recorded nothing.
import { createRun, removeRunWithoutIterations } from '../../core/loop/run-loop';
import type { LoopRequest } from '../../core/loop/loop-request';
import { readRunInfo } from '../../core/loop/run-store';
import { errorMessage } from '../../core/util/errors';
import type { TaskFolder } from '../../core/workspace/task-folder';
import { log } from '../log';
import { suggestedRunName } from './new-run';

/**
 * The active run, created (branch at the base, line 0 = the base run) when it does not exist
 * yet: under its name, else a free name from who plays the roles.
 */
export async function ensureRun(
  task: TaskFolder,
  active: string | undefined,
  request: LoopRequest,
  replayFrom?: string,
): Promise<{ run: string; created: boolean }> {
  if (active && (await readRunInfo(task, active))) return { run: active, created: false };
  const run = active ?? (await suggestedRunName(task));
  log().info(`Creating run ${run}`);
  await createRun({
    task,
    run,
    roles: request.roles,
    runtime: request.runtime,
    agentRuntimes: request.agentRuntimes,
    pytest: request.pytest,
    // A replay goes as far as the run it replays.
    maxIterations: (replayFrom ? (await readRunInfo(task, replayFrom))?.maxIterations : undefined) ?? request.maxIterations,
  });
  return { run, created: true };
}

/**
 * A run this call created whose first iteration never completed a step (an agent missing,
 * a cancel) holds nothing: remove it rather than leave an empty run with a pending iteration.
 * The active run keeps its name, so the next call creates it again.
 */
export async function removeEmptyRun(task: TaskFolder, run: string): Promise<void> {
  try {
    if (await removeRunWithoutIterations(task, run)) log().info(`Removed run ${run}: it had no completed step yet`);
  } catch (err) {
    log().warn(`Could not remove the empty run ${run}: ${errorMessage(err)}`);
  }
}
