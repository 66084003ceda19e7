// A task named by where it comes from: a dataset's task id, or a git repository's base and
// target refs. The extension's Check Out command (given arguments) and the CLI's checkout both
// resolve through here.
import { UserError } from '../util/errors';
import { listSplits, readDatasetTasks } from './dataset';
import { taskFromGitPair } from './git-pair';
import type { TaskSpec } from './task-spec';

export type TaskSource =
  { kind: 'dataset'; datasetDir: string; split?: string; taskId: string } | { kind: 'git'; repoPath: string; baseRef: string; targetRef: string };

export async function resolveTask(source: TaskSource): Promise<TaskSpec> {
  if (source.kind === 'git') return taskFromGitPair(source.repoPath, source.baseRef, source.targetRef);
  const split = source.split ?? (await listSplits(source.datasetDir))[0];
  const spec = (await readDatasetTasks(source.datasetDir, split)).find((t) => t.id === source.taskId);
  if (!spec) throw new UserError(`Task ${source.taskId} is not in ${source.datasetDir} (split ${split}).`);
  return spec;
}
