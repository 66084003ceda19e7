// Grades predictions made by any tool the way SWE-bench's harness evaluates one: the instance's
// base commit, the model's patch applied on it, the test patch's files put back as the test patch
// has them, then pytest on the test patch's files (our confined runner, as every run of a
// task's code), graded by our rule. Each prediction gets its result; an unknown instance, a
// patch that does not apply or a run where pytest did not run is an error row, never a crash.
import { readGivenFile } from '../../util/given-file';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pytestSelection } from '../../checkout/pytest-targets';
import { machineSeedStore } from '../../pytest/bytecode-seed';
import type { PytestSettings } from '../../pytest/pytest-settings';
import { runPytest } from '../../pytest/run-pytest';
import type { Runtime } from '../../runtime/runtime';
import { pytestNetwork } from '../../runtime/task-confinement';
import { resolveCommit } from '../../task/git-refs';
import { parseSweBenchClSequences, parseSweBenchInstances, type SweBenchInstance } from '../../task/swe-bench-instance';
import { findInstanceRepo, type InstanceRepoChoice } from '../../task/swe-bench-task';
import { AbortError, UserError, errorMessage } from '../../util/errors';
import { gitRunner } from '../../util/git';
import { userCacheDir } from '../../util/user-cache';
import { rawReportFileIn } from '../../workspace/layout';
import { commitTestPatch } from '../../workspace/test-patch';
import { exportTree } from '../../workspace/upstream';
import { instanceReport, type InstanceResult, type Prediction } from './harness-files';

export interface GradeOptions extends PytestSettings {
  instances: readonly SweBenchInstance[];
  /** The instances file, for messages (and hidden from the code under test: it may hold the gold patches). */
  instancesFile: string;
  clones: InstanceRepoChoice;
  runtime: Runtime;
  /** More paths the code under test must not see (the predictions file, the output folder). */
  hide?: readonly string[];
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

/** Each prediction's result, by instance id, in the order given. */
export async function gradePredictions(predictions: readonly Prediction[], o: GradeOptions): Promise<Map<string, InstanceResult>> {
  const byId = new Map(o.instances.map((i) => [i.instanceId, i]));
  const results = new Map<string, InstanceResult>();
  for (const [n, p] of predictions.entries()) {
    if (o.signal?.aborted) throw new AbortError();
    const instance = byId.get(p.instance_id);
    if (!instance) {
      results.set(p.instance_id, { kind: 'error', reason: `instance "${p.instance_id}" is not in ${o.instancesFile}` });
      continue;
    }
    if (p.model_patch === null || p.model_patch === '') {
      results.set(p.instance_id, { kind: 'empty' });
      continue;
    }
    o.onProgress?.(`${n + 1}/${predictions.length} ${p.instance_id}`);
    results.set(p.instance_id, await gradeOne(instance, p.model_patch, o));
  }
  return results;
}

async function gradeOne(instance: SweBenchInstance, patch: string, o: GradeOptions): Promise<InstanceResult> {
  const where = `${o.instancesFile} (${instance.instanceId})`;
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-grade-'));
  try {
    let tree: { tree: string; testFiles: string[] };
    try {
      tree = await patchedTree(instance, patch, scratch, where, o);
    } catch (err) {
      if (err instanceof UserError) return { kind: 'error', patch, reason: err.message };
      throw err;
    }
    const code = path.join(scratch, 'code');
    await exportTree(path.join(scratch, 'repo.git'), tree.tree, code, o.signal);
    const outcome = await runPytest(o.runtime, {
      ...(await pytestSelection(tree.testFiles, code)),
      python: o.python,
      codeDir: code,
      reportFile: rawReportFileIn(scratch),
      bytecodeSeedDir: machineSeedStore(),
      timeoutMs: o.timeoutMs,
      format: o.format,
      env: o.env,
      // As every run of a task's code: the clone (its history holds the fix), the instances file
      // (the gold patches), the machine's bytecode seeds; the sandbox shows none of them anyway.
      confine: {
        hide: [...(o.hide ?? []), path.resolve(o.instancesFile), repoOf(instance, o), path.resolve(userCacheDir())],
        addressSpaceLimit: true,
        network: pytestNetwork(o.network),
      },
      signal: o.signal,
    });
    if (outcome.kind === 'did-not-run') {
      if (outcome.cancelled) throw new AbortError();
      return { kind: 'error', patch, testOutput: outcome.output, reason: `pytest did not run: ${outcome.reason}` };
    }
    return { kind: 'graded', patch, testOutput: outcome.output, report: instanceReport(outcome.report, instance) };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

function repoOf(instance: SweBenchInstance, o: GradeOptions): string {
  return findInstanceRepo(instance, o.clones, o.instancesFile);
}

/**
 * The tree to test, built in a scratch repository that borrows the clone's objects (the clone is
 * never written): base + the model's patch, with the test patch's files as the test patch has
 * them. A UserError says why the instance cannot be graded (no clone, no base, a patch that does not apply).
 */
async function patchedTree(
  instance: SweBenchInstance,
  patch: string,
  scratch: string,
  where: string,
  o: GradeOptions,
): Promise<{ tree: string; testFiles: string[] }> {
  const clone = findInstanceRepo(instance, o.clones, o.instancesFile);
  const repo = path.join(scratch, 'repo.git');
  await gitRunner(scratch, { signal: o.signal }).raw(['init', '--quiet', '--bare', '--template=', repo]);
  const objects = await cloneObjects(clone, o.signal);
  await fs.mkdir(path.join(repo, 'objects', 'info'), { recursive: true });
  await fs.writeFile(path.join(repo, 'objects', 'info', 'alternates'), `${objects}\n`);
  let base: string;
  try {
    base = await resolveCommit(repo, instance.baseCommit, { what: 'base_commit', signal: o.signal });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    throw new UserError(`${where}: base_commit ${instance.baseCommit} is not a commit of ${clone}.`);
  }
  const target = await commitTestPatch(repo, base, instance.testPatch, where, o.signal);
  const git = gitRunner(repo, { signal: o.signal, env: { GIT_DIR: repo, GIT_INDEX_FILE: path.join(scratch, 'index') } });
  await git.raw(['read-tree', base]);
  const patchFile = path.join(scratch, 'model.patch');
  await fs.writeFile(patchFile, patch.endsWith('\n') ? patch : `${patch}\n`);
  try {
    await git.raw(['apply', '--cached', '--whitespace=nowarn', patchFile]);
  } catch (err) {
    const first = errorMessage(err).trim().split('\n').slice(0, 3).join(' ').slice(0, 400);
    throw new UserError(`model_patch does not apply on base_commit ${base.slice(0, 12)}: ${first}`);
  }
  // The test patch's files as it has them (the harness resets them and applies the test patch after the model's).
  const inTarget = (await git.raw(['ls-tree', '-r', '-z', '--full-tree', target.sha, '--', ...target.files])).split('\0').filter((l) => l !== '');
  const entries = inTarget.map((l) => {
    const [meta, file] = [l.slice(0, l.indexOf('\t')), l.slice(l.indexOf('\t') + 1)];
    const [mode, , sha] = meta.split(' ');
    return { mode, sha, file };
  });
  const present = new Set(entries.map((e) => e.file));
  const removed = target.files.filter((f) => !present.has(f));
  if (entries.length > 0) await git.raw(['update-index', '--add', ...entries.flatMap((e) => ['--cacheinfo', `${e.mode},${e.sha},${e.file}`])]);
  if (removed.length > 0) await git.raw(['update-index', '--force-remove', '--', ...removed]);
  const tree = (await git.raw(['write-tree'])).trim();
  return { tree, testFiles: target.files };
}

/** The clone's object folder (a work tree's .git or a bare clone). */
async function cloneObjects(clone: string, signal?: AbortSignal): Promise<string> {
  const common = (await gitRunner(clone, { signal }).raw(['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  return path.join(common, 'objects');
}

/** The instances to grade against: a SWE-bench-style instances file, or a SWE-Bench-CL sequence file (every task of every sequence). */
export async function readGradingInstances(file: string): Promise<SweBenchInstance[]> {
  const { abs, text } = await readGivenFile(file, 'a SWE-bench-style instances file (.json or .jsonl) or a SWE-Bench-CL sequence file');
  if (!/^\s*\{\s*"sequences"\s*:/.test(text)) return parseSweBenchInstances(text, abs);
  const all = parseSweBenchClSequences(text, abs).flatMap((s) => s.tasks);
  const seen = new Set<string>();
  for (const i of all) {
    if (seen.has(i.instanceId)) throw new UserError(`${abs}: instance "${i.instanceId}" is in more than one sequence; grade one sequence's file at a time.`);
    seen.add(i.instanceId);
  }
  return all;
}
