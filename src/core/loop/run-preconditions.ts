// What a run needs before anything is changed: a task folder, agents whose settings can work (no
// path that shows what they must not see, a model where their endpoint needs one), and (in
// messages) the paths that keep app/code from being clean.
import { assertModelsSet } from '../agents/endpoint/endpoint-check';
import { UserError } from '../util/errors';
import { readTaskRecord } from '../workspace/materialize';
import type { TaskRecord } from '../workspace/layout';
import { refuseExposedPaths } from './exposed-paths';
import { LocalRuntime } from '../runtime/local-runtime';
import type { LoopOptions } from './loop-types';
import type { TaskFolder } from '../workspace/task-folder';

export async function requireTask(task: TaskFolder): Promise<TaskRecord> {
  const record = await readTaskRecord(task);
  if (!record) throw new UserError(`${task.root} is not a SWE-CI task folder (no .sweci/task.json). Check a task out first.`);
  return record;
}

/** The first paths of a list for a message, e.g. "a.py, b.py and 3 more". */
export function listPaths(paths: string[]): string {
  return paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
}

/**
 * Before anything runs: no path the user hands the sandbox (a custom command's absolute paths,
 * sweci.sandboxReadablePaths) may show the dataset, an experiment, an oracle or another task.
 */
export function refuseExposingPaths(opts: Pick<LoopOptions, 'task' | 'roles' | 'runtime' | 'agentRuntimes'>, record: TaskRecord): void {
  const locals = [opts.runtime, opts.agentRuntimes?.host].filter((r): r is LocalRuntime => r instanceof LocalRuntime);
  const agents = { architect: opts.roles.architect.settings, programmer: opts.roles.programmer.settings };
  refuseExposedPaths({
    task: opts.task,
    record,
    agents,
    readable: [...new Set(locals.flatMap((r) => r.readable))],
    writable: [...new Set(locals.flatMap((r) => r.writable))],
  });
}

/** Before anything runs: a role's preset that needs a model with its endpoint (opencode) has one. */
export function refuseMissingModels(opts: Pick<LoopOptions, 'roles'>): void {
  assertModelsSet({ architect: opts.roles.architect.settings, programmer: opts.roles.programmer.settings });
}
