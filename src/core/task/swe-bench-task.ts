// A SWE-bench-style instance as a task: the instances file read and checked, the instance's local
// clone found (given, or by repo name in a folder of clones), and its base commit resolved there.
import { readGivenFile } from '../util/given-file';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { UserError } from '../util/errors';
import { resolveCommit } from './git-refs';
import { parseSweBenchInstances, type SweBenchInstance } from './swe-bench-instance';
import type { TaskSpec } from './task-spec';

export interface InstanceRepoChoice {
  /** The clone of the instance's repository. */
  repoPath?: string;
  /** A folder of clones, found by repo name: `<name>`, `<owner>__<name>` or `<owner>/<name>`. */
  reposDir?: string;
}

export async function readSweBenchFile(file: string): Promise<SweBenchInstance[]> {
  const { abs, text } = await readGivenFile(file, 'a SWE-bench-style instances file (.json or .jsonl)');
  return parseSweBenchInstances(text, abs);
}

/** The clone of `instance.repo` under `reposDir`, trying the usual layouts of a folder of clones. */
export function findInstanceRepo(instance: SweBenchInstance, choice: InstanceRepoChoice, file: string): string {
  if (choice.repoPath) return path.resolve(choice.repoPath);
  if (!choice.reposDir) throw new UserError(`Instance ${instance.instanceId}: give the clone of ${instance.repo} (or a folder of clones).`);
  const [owner, name] = instance.repo.split('/');
  const candidates = [path.join(choice.reposDir, `${owner}__${name}`), path.join(choice.reposDir, owner, name), path.join(choice.reposDir, name)].map((p) =>
    path.resolve(p),
  );
  const found = candidates.find((p) => existsSync(path.join(p, '.git')) || existsSync(path.join(p, 'HEAD')));
  if (!found) {
    throw new UserError(
      `${file} (${instance.instanceId}): no clone of ${instance.repo} in ${path.resolve(choice.reposDir)} (looked for ${candidates.map((c) => path.basename(c)).join(', ')}). Clone it there, or give its folder.`,
    );
  }
  return found;
}

/** A task spec for one instance; its base commit must be in the clone. */
export async function taskFromSweBenchInstance(instance: SweBenchInstance, file: string, choice: InstanceRepoChoice, signal?: AbortSignal): Promise<TaskSpec> {
  const repoPath = findInstanceRepo(instance, choice, file);
  let baseSha: string;
  try {
    baseSha = await resolveCommit(repoPath, instance.baseCommit, { what: 'base_commit', signal, userConfig: true });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    throw new UserError(
      `${file} (${instance.instanceId}): base_commit ${instance.baseCommit} is not a commit of ${repoPath}. Fetch the repository's full history, or check the instance.`,
      { detail: err.message, cause: err },
    );
  }
  return {
    id: instance.instanceId,
    repo: instance.repo,
    baseSha,
    targetSha: '',
    source: { kind: 'swe-bench', repoPath, instancesFile: path.resolve(file), instance },
  };
}

/** Reads the file and makes the task of the instance named `instanceId` (or its only one). */
export async function resolveSweBenchTask(file: string, instanceId: string | undefined, choice: InstanceRepoChoice, signal?: AbortSignal): Promise<TaskSpec> {
  const abs = path.resolve(file);
  const instances = await readSweBenchFile(abs);
  let instance: SweBenchInstance | undefined;
  if (instanceId === undefined) {
    if (instances.length > 1)
      throw new UserError(
        `${abs} holds ${instances.length} instances; name one (${instances
          .slice(0, 3)
          .map((i) => i.instanceId)
          .join(', ')}${instances.length > 3 ? ', …' : ''}).`,
      );
    instance = instances[0];
  } else {
    instance = instances.find((i) => i.instanceId === instanceId);
    if (!instance) throw new UserError(`${abs} has no instance "${instanceId}".`);
  }
  return taskFromSweBenchInstance(instance, abs, choice, signal);
}
