// What a task's agents and its code under test must never see. The sandbox is an allow-list, so
// none of it is shown anyway; it is also hidden by name, so that a readable path the user gave
// (sweci.sandboxReadablePaths) that happens to hold it still does not show it: the task folder's
// records (.sweci: runs, history, task.json naming the oracle), the oracle, every oracle kept
// beside it, and where the task came from (the dataset's task folder with code.zip, which holds
// the whole history; a git pair's or an instance's repository, and the instances file). What a
// command may use comes through its mounts (app/ for agents; the code and report folder for pytest).
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Confinement, NetworkConfinement } from './sandbox';
import { EXPERIMENT_FILE, type TaskRecord } from '../workspace/layout';
import { userCacheDir } from '../util/user-cache';
import { taskFolder, type TaskFolder } from '../workspace/task-folder';

/**
 * What the code under test may reach: `none` (default), a network namespace of its own with only
 * `lo` (in a container, Docker's `none`); `host`, this machine's network (the run is flagged not
 * isolated).
 */
export const PYTEST_NETWORK_CHOICES = ['none', 'host'] as const;
export type PytestNetwork = (typeof PYTEST_NETWORK_CHOICES)[number];

/** One thing a task's commands must not see, and what it is (for messages that name it). */
export interface TaskSecret {
  path: string;
  what: string;
}

function taskSecrets(task: TaskFolder, record: TaskRecord): string[] {
  return namedTaskSecrets(task, record).map((s) => s.path);
}

export function namedTaskSecrets(task: TaskFolder, record: TaskRecord): TaskSecret[] {
  const hide: TaskSecret[] = [
    { path: path.resolve(task.root), what: "the task's own folder (its records)" },
    { path: path.resolve(record.oracleDir), what: "the task's oracle" },
  ];
  const store = path.dirname(path.resolve(record.oracleDir));
  // The extension and the CLI keep oracles side by side in an `oracles` folder.
  if (path.basename(store) === 'oracles') hide.push({ path: store, what: 'the oracles of the tasks' });
  // A task of a benchmark run: the experiment folder holds every other task, their oracles and
  // their runs. Hidden as a whole; the command's own folders come back through its mounts.
  const parent = path.dirname(path.resolve(task.root));
  if (existsSync(path.join(parent, EXPERIMENT_FILE))) hide.push({ path: parent, what: 'the experiment folder (every task of the run)' });
  // Tasks checked out side by side (the extension's tasks folder, a test's scratch folder).
  for (const other of siblingTasks(task)) hide.push({ path: other, what: 'another task' });
  const source = record.task.source;
  if (source.kind === 'dataset') {
    hide.push({ path: path.dirname(path.resolve(source.zipPath)), what: "the task's data in the dataset (code.zip: its whole history)" });
    // Every other task's code.zip is its future (and, for the same repository, this one's).
    hide.push({ path: path.resolve(source.datasetDir), what: "the dataset (every task's code.zip)" });
  } else hide.push({ path: path.resolve(source.repoPath), what: "the task's source repository (its whole history)" });
  // An instances file may carry the gold patch (SWE-bench's "patch" field).
  if (source.kind === 'swe-bench') hide.push({ path: path.resolve(source.instancesFile), what: 'the instances file (the gold patches)' });
  return hide;
}

/** Task folders beside this one. */
function siblingTasks(task: TaskFolder): string[] {
  const own = path.resolve(task.root);
  const parent = path.dirname(own);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  return names.map((n) => path.join(parent, n)).filter((p) => p !== own && existsSync(taskFolder(p).taskFile));
}

/**
 * Hidden from every command besides the task's secrets: SWE-CI's cache on this machine, which holds
 * the bytecode seeds every task's pytest runs load (a .pyc written there would forge every later
 * score). Never shown anyway; hidden in case a path the user lets commands read or write
 * (sweci.sandboxReadablePaths, sweci.sandboxWritablePaths) holds it.
 */
function hiddenPaths(task: TaskFolder, record: TaskRecord): string[] {
  return [...taskSecrets(task, record), path.resolve(userCacheDir())];
}

/**
 * pytest: writes only its code folder and its report folder (its mounts), and a /tmp of its own;
 * on a network of its own with only `lo` unless sweci.pytest.network is `host`.
 */
export function pytestConfinement(task: TaskFolder, record: TaskRecord, network: PytestNetwork | undefined): Confinement {
  return { hide: hiddenPaths(task, record), addressSpaceLimit: true, network: pytestNetwork(network) };
}

/**
 * The code under test's network: its own namespace with only `lo` (tests that serve on
 * 127.0.0.1 still reach themselves; nothing of this machine's loopback, its abstract Unix sockets,
 * the gateway or any other host is there), or with `host` this machine's.
 */
export function pytestNetwork(network: PytestNetwork | undefined): NetworkConfinement {
  return network === 'host' ? { kind: 'open' } : { kind: 'none' };
}

/**
 * An agent: app/ and its private home under the task's state (its mounts, agent-home.ts), a /tmp
 * of its own; its network is the driver's to set (model-access.ts). The user's home is not there at all.
 */
export function agentConfinement(task: TaskFolder, record: TaskRecord): Confinement {
  return { hide: hiddenPaths(task, record) };
}
