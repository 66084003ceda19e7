// What a task's agents and its code under test must never see. The sandbox is an allow-list, so
// none of it is shown anyway; it is also hidden by name, so that a readable path the user gave
// (sweci.sandboxReadablePaths) that happens to hold it still does not show it: the task folder's
// records (.sweci: runs, history, task.json naming the oracle), the oracle, every oracle kept
// beside it, and where the task came from (the dataset's task folder with code.zip, which holds
// the whole history; a git pair's or an instance's repository, and the instances file). What a
// command may use comes through its mounts (app/ for agents; the code and report folder for pytest).
import { existsSync } from 'node:fs';
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

/** pytest: writes only its code folder and its report folder (its mounts), and a /tmp of its own. */
export function pytestConfinement(taskDir: string, record: TaskRecord): Confinement {
  return { hide: taskSecrets(taskDir, record) };
}

/**
 * An agent: app/ and its private home under the task's state (its mounts, agent-home.ts), a /tmp
 * of its own, and the network (no namespace for it). The user's home is not there at all.
 */
export function agentConfinement(taskDir: string, record: TaskRecord): Confinement {
  return { hide: taskSecrets(taskDir, record) };
}
