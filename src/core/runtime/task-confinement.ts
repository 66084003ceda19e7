// What a task's agents and its code under test must never see, and so what a sandbox hides:
// the task folder's records (.sweci: runs, history, task.json naming the oracle), the oracle,
// every oracle kept beside it, and where the task came from (the dataset's task folder with
// code.zip, which holds the whole history; a git pair's or an instance's repository, and the
// instances file). What a command may use
// is then given back by its mounts (app/ for agents; the code and the report folder for pytest).
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Confinement } from './sandbox';
import { EXPERIMENT_FILE, type TaskRecord } from '../workspace/layout';

export function taskSecrets(taskDir: string, record: TaskRecord): string[] {
  const hide = [path.resolve(taskDir), path.resolve(record.oracleDir)];
  const store = path.dirname(path.resolve(record.oracleDir));
  // The extension and the CLI keep oracles side by side in an `oracles` folder.
  if (path.basename(store) === 'oracles') hide.push(store);
  // A task of a benchmark run: the experiment folder holds every other task, their oracles and
  // their runs. Hidden as a whole; the command's own folders come back through its mounts.
  const parent = path.dirname(path.resolve(taskDir));
  if (existsSync(path.join(parent, EXPERIMENT_FILE))) hide.push(parent);
  const source = record.task.source;
  hide.push(source.kind === 'dataset' ? path.dirname(path.resolve(source.zipPath)) : path.resolve(source.repoPath));
  // An instances file may carry the gold patch (SWE-bench's "patch" field).
  if (source.kind === 'swe-bench') hide.push(path.resolve(source.instancesFile));
  return hide;
}

/** pytest: writes only its code folder, its report folder and the temp folder. */
export function pytestConfinement(taskDir: string, record: TaskRecord): Confinement {
  return { hide: taskSecrets(taskDir, record), writable: [os.tmpdir()] };
}

/**
 * An agent: the temp folder, and the network (no namespace for it). Its home is a private one
 * under the task's state, given back as a mount (agent-home.ts): the user's home is not its to write.
 */
export function agentConfinement(taskDir: string, record: TaskRecord): Confinement {
  return { hide: taskSecrets(taskDir, record), writable: [os.tmpdir()] };
}
