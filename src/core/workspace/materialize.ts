// Materialise a task: the oracle outside the workspace, app/code as a fresh repository
// at the base with the target's tests, and `.sweci/task.json` written last.
import { lstatSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isFullSha, resolveCommit } from '../task/git-refs';
import type { SafeUnzipOptions } from '../task/safe-unzip';
import { sourceLocation, type TaskSpec } from '../task/task-spec';
import { copyTree, listFiles } from '../util/copy-tree';
import { AbortError, UserError, isAbortError, throwIfAborted } from '../util/errors';
import { z } from 'zod';
import { jsonRecordFile } from '../records/record-file';
import { gitRunner } from '../util/git';
import { isSameOrInside, realpathLenient } from '../util/paths';
import { createHistory } from './history-store';
import { rebuildWorkingRepo } from './working-repo';
import { oracleLayout, UPSTREAM_BASE_REF, UPSTREAM_TARGET_REF, type OracleLayout, type TaskRecord } from './layout';
import { isTestArtifact } from './restore-tests';
import { readTaskRecord, writeTaskRecord } from './task-record';
import { cloneUpstream, exportTree, pruneTopLevel } from './upstream';
import { commitTestPatch } from './test-patch';
import { taskFolder, type TaskFolder } from './task-folder';

export { readTaskRecord } from './task-record';
export { restoreTargetTests, diffTestTrees } from './restore-tests';

export interface MaterializeOptions {
  /** The task folder (opened as the workspace). Must be missing, empty, or already this task. */
  task: TaskFolder;
  /** Where the oracle goes; must be outside `task`. Missing, empty, or an oracle of this task. */
  oracleDir: string;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Limits for unpacking a dataset's code.zip. */
  unzip?: SafeUnzipOptions;
  /**
   * Runs once a new oracle is complete, before anything is written in the task folder: a check
   * that throws leaves nothing behind (a SWE-bench instance's test lists are checked here).
   */
  checkOracle?: (oracle: OracleLayout, spec: TaskSpec) => Promise<void>;
  /**
   * Started once the oracle is ready (built and checked, or reused), while the task folder is
   * made: a checkout runs the target's tests then. Its promise is the caller's to await (and must
   * never be left rejected); when the task folder cannot be made, `stop` is aborted and the work
   * awaited before anything is removed.
   */
  alongside?: (stop: AbortSignal) => Promise<unknown>;
}

/** What the oracle writes besides its marker; removed again when a new oracle fails. */
const ORACLE_ENTRIES = ['upstream', 'target', '.unzip', 'oracle.json', 'target.report.json', 'target.pytest-output.txt', 'pytest-out'];

/** `oracle.json`: which task and commits an oracle folder holds. */
const fullSha = z.string().refine(isFullSha, 'is not a full commit sha');

/** The oracle folder's marker: which task's commits it holds. */
const oracleMarkerSchema = z.object({
  schema: z.literal(1),
  taskId: z.string(),
  baseSha: fullSha,
  targetSha: fullSha,
  baseDate: z.string(),
  /** A SWE-bench instance's test files (what its test patch touches). */
  testPaths: z.array(z.string()).optional(),
});
type OracleMarker = z.infer<typeof oracleMarkerSchema>;

// A marker that does not read is as good as none: the oracle is built again.
const markerFile = jsonRecordFile({ schema: oracleMarkerSchema, whenDamaged: 'The oracle is built again.', onDamage: 'missing' });

/** The dataset may give short shas; a record holds full ones. */
function shaMatches(full: string, given: string): boolean {
  return full.toLowerCase().startsWith(given.toLowerCase()) && given.length >= 7;
}

/** Whether recorded commits belong to `spec` (an instance has no target sha before its oracle). */
function isSameTask(recorded: { id?: string; taskId?: string; baseSha: string; targetSha: string }, spec: TaskSpec): boolean {
  if (spec.source.kind === 'swe-bench') return (recorded.id ?? recorded.taskId) === spec.id && shaMatches(recorded.baseSha, spec.baseSha);
  return shaMatches(recorded.baseSha, spec.baseSha) && shaMatches(recorded.targetSha, spec.targetSha);
}

async function entriesOf(dir: string): Promise<string[] | undefined> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw new UserError(`${dir} is a file, not a folder. Choose a folder.`);
    throw err;
  }
}

async function readMarker(oracle: OracleLayout): Promise<OracleMarker | undefined> {
  return markerFile.read(oracle.markerFile).catch(() => undefined);
}

/** A SWE-bench instance's test files as its oracle records them (undefined for other tasks). */
export async function oracleTestPaths(oracleDir: string): Promise<string[] | undefined> {
  return (await readMarker(oracleLayout(oracleDir)))?.testPaths;
}

/** Removes what one materialisation created: the whole folder if it made it, else its own entries. */
class Cleanup {
  private readonly steps: Array<() => Promise<void>> = [];
  removeLater(dir: string, createdDir: boolean, entries: readonly string[]): void {
    this.steps.push(async () => {
      if (createdDir) await fs.rm(dir, { recursive: true, force: true });
      else for (const e of entries) await fs.rm(path.join(dir, e), { recursive: true, force: true });
    });
  }
  async run(): Promise<void> {
    for (const step of this.steps.reverse()) await step().catch(() => undefined);
  }
}

/**
 * Materialises `spec` into `task` with its oracle in `oracleDir` and returns the task record.
 * Idempotent: a folder that already holds this task is returned as is. On failure, everything this
 * call created is removed again; pre-existing files are never touched.
 */
export async function materializeTask(spec: TaskSpec, options: MaterializeOptions): Promise<TaskRecord> {
  const signal = options.signal;
  const progress = options.onProgress ?? (() => undefined);
  const task = taskFolder(path.resolve(options.task.root));
  const oracleDir = path.resolve(options.oracleDir);
  const oracle = oracleLayout(oracleDir);

  const [taskReal, oracleReal] = await Promise.all([realpathLenient(task.root), realpathLenient(oracleDir)]);
  if (isSameOrInside(taskReal, oracleReal) || isSameOrInside(oracleReal, taskReal)) {
    throw new UserError(
      `The oracle folder ${oracleDir} must be outside the task folder ${task.root} (an agent working in the task must not see the target). Choose separate folders.`,
    );
  }

  // 1. What is in the task folder already?
  const existing = await readTaskRecord(task);
  if (existing) {
    if (isSameTask(existing.task, spec)) return existing;
    throw new UserError(
      `${task.root} already holds another task (${existing.task.id}, base ${existing.task.baseSha.slice(0, 12)}). Choose an empty folder for ${spec.id}.`,
    );
  }
  const taskEntries = await entriesOf(task.root);
  if (taskEntries && taskEntries.length > 0) {
    throw new UserError(`${task.root} is not empty and is not a SWE-CI task folder. Choose an empty folder to check ${spec.id} out into.`);
  }

  // 2. The oracle: reuse a complete one of this task, else build it in an empty folder.
  const cleanup = new Cleanup();
  const stop = new AbortController();
  let beside: Promise<unknown> | undefined;
  try {
    throwIfAborted(signal);
    let marker = await readMarker(oracle);
    if (marker && !isSameTask(marker, spec)) {
      throw new OracleFolderError(`The oracle folder ${oracleDir} holds the oracle of another task (${marker.taskId}). Choose another oracle folder.`);
    }
    if (marker) {
      progress('Reusing the existing oracle');
    } else {
      const oracleEntries = await entriesOf(oracleDir);
      if (oracleEntries && oracleEntries.length > 0) {
        throw new OracleFolderError(
          `The oracle folder ${oracleDir} is not empty and holds no complete oracle. Choose an empty folder, or delete it to rebuild.`,
        );
      }
      cleanup.removeLater(oracleDir, oracleEntries === undefined, ORACLE_ENTRIES);
      await fs.mkdir(oracleDir, { recursive: true });
      marker = await buildOracle(spec, oracle, options);
      throwIfAborted(signal);
      await options.checkOracle?.(oracle, spec);
    }
    const instance = spec.source.kind === 'swe-bench';
    beside = options.alongside?.(stop.signal);

    // 3. The task folder. Nothing was written here before the shas were known to exist.
    throwIfAborted(signal);
    cleanup.removeLater(task.root, taskEntries === undefined, [path.basename(task.appDir), path.basename(task.sweciDir)]);
    progress('Checking out the base');
    await fs.mkdir(task.codeDir, { recursive: true });
    if (instance) {
      // The base with the instance's test patch: the tests may be anywhere in the tree. The tree
      // stays whole (.gitignore, .github/): SWE-bench evaluates in the repository as it is.
      await exportTree(oracle.upstreamDir, marker.targetSha, task.codeDir, signal);
    } else {
      await exportTree(oracle.upstreamDir, marker.baseSha, task.codeDir, signal);
      await pruneTopLevel(task.codeDir, ['test', 'tests']);

      throwIfAborted(signal);
      progress("Copying the target's tests");
      await copyTree(oracle.targetTestsDir, path.join(task.codeDir, 'tests'), { filter: (rel) => !isTestArtifact(rel) });
    }

    throwIfAborted(signal);
    progress('Creating a fresh repository (no upstream history)');
    const baseCommit = await createHistory(task, `SWE-CI base ${marker.baseSha.slice(0, 12)}`, marker.baseDate, signal);
    await rebuildWorkingRepo(task, signal);

    throwIfAborted(signal);
    const record: TaskRecord = {
      schema: 1,
      task: { ...spec, baseSha: marker.baseSha, targetSha: marker.targetSha },
      oracleDir,
      createdAt: new Date().toISOString(),
      baseCommit,
      ...(marker.testPaths ? { testPaths: marker.testPaths } : {}),
    };
    await writeTaskRecord(task, record);
    progress('Task folder ready');
    return record;
  } catch (err) {
    stop.abort();
    await beside?.catch(() => undefined);
    await cleanup.run();
    // simple-git reports a kill by the signal as its own error type; callers test for AbortError.
    if (signal?.aborted && !isAbortError(err)) throw new AbortError();
    throw err;
  }
}

/** Clones the upstream, resolves and pins the shas, exports the target; writes oracle.json last. */
async function buildOracle(spec: TaskSpec, oracle: OracleLayout, options: MaterializeOptions): Promise<OracleMarker> {
  const signal = options.signal;
  await cloneUpstream(spec, oracle.upstreamDir, path.join(oracle.root, '.unzip'), {
    signal,
    onProgress: options.onProgress,
    unzip: options.unzip,
  });
  throwIfAborted(signal);
  if (spec.source.kind === 'swe-bench') return buildInstanceOracle(spec, spec.source.instance.testPatch, oracle, options);
  options.onProgress?.('Resolving the base and target commits');
  const where = sourceLocation(spec);
  const resolve = async (sha: string, what: string): Promise<string> => {
    try {
      return await resolveCommit(oracle.upstreamDir, sha, { what, signal });
    } catch (err) {
      if (err instanceof UserError) {
        throw new UserError(`Task ${spec.id}: the ${what} "${sha}" is not a commit in ${where}. Check the task's shas, or re-download its code.zip.`, {
          detail: err.message,
          cause: err,
        });
      }
      throw err;
    }
  };
  // Both at once; a bad base is reported before a bad target, as they are named.
  const [base, target] = await Promise.allSettled([
    resolve(spec.baseSha, spec.source.kind === 'dataset' ? 'base sha (current_sha)' : 'base'),
    resolve(spec.targetSha, spec.source.kind === 'dataset' ? 'target sha (target_sha)' : 'target'),
  ]);
  if (base.status === 'rejected') throw base.reason;
  if (target.status === 'rejected') throw target.reason;
  const [baseSha, targetSha] = [base.value, target.value];
  if (baseSha === targetSha) {
    throw new UserError(`Task ${spec.id}: the base and the target are the same commit (${baseSha.slice(0, 12)}). Fix the task's shas.`);
  }
  throwIfAborted(signal);
  const baseDate = await pinAndExport(oracle, baseSha, targetSha, 'Exporting the target (the oracle)', options);
  await pruneTopLevel(oracle.targetCodeDir, ['test']);
  const tests = await fs.lstat(oracle.targetTestsDir).catch(() => undefined);
  if (tests?.isSymbolicLink()) {
    // Following it would copy a folder of this machine into the workspace (and commit it).
    const to = await fs.readlink(oracle.targetTestsDir).catch(() => '?');
    throw new UserError(
      `Task ${spec.id}: the target commit ${targetSha.slice(0, 12)} has tests as a symbolic link (to ${to}), not a folder. SWE-CI copies only a real tests/ folder, never what a link points to; choose a target whose tests/ is a folder.`,
    );
  }
  if (!tests?.isDirectory()) {
    throw new UserError(
      `Task ${spec.id}: the target commit ${targetSha.slice(0, 12)} has no tests/ folder at its top level. SWE-CI runs the target's tests/; choose a target that has them.`,
    );
  }
  // A link inside tests/ would make a folder of this machine part of the oracle (pytest follows it).
  const links = (await listFiles(oracle.targetTestsDir)).filter((rel) => isLink(path.join(oracle.targetTestsDir, rel)));
  if (links.length > 0) {
    throw new UserError(
      `Task ${spec.id}: the target commit ${targetSha.slice(0, 12)} has symbolic links in tests/ (${links
        .slice(0, 3)
        .map((l) => `tests/${l}`)
        .join(
          ', ',
        )}${links.length > 3 ? `, and ${links.length - 3} more` : ''}). SWE-CI never runs what a link in the oracle points to; choose a target whose tests/ holds only files and folders.`,
    );
  }
  const marker: OracleMarker = { schema: 1, taskId: spec.id, baseSha, targetSha, baseDate };
  await markerFile.write(oracle.markerFile, marker);
  return marker;
}

/**
 * Pins the base and the target (refs keep both reachable, safe from gc, and easy to name in
 * replays) and exports the target's tree into the oracle, side by side; returns the base's commit
 * date. Spawned directly (gitRunner): simple-git waits 50 ms after each git that prints nothing.
 */
async function pinAndExport(oracle: OracleLayout, baseSha: string, targetSha: string, exporting: string, options: MaterializeOptions): Promise<string> {
  const upstream = gitRunner(oracle.upstreamDir, { signal: options.signal });
  const pinned = Promise.all([
    upstream.raw(['update-ref', UPSTREAM_BASE_REF, baseSha]),
    upstream.raw(['update-ref', UPSTREAM_TARGET_REF, targetSha]),
    upstream.raw(['show', '-s', '--format=%cI', baseSha]),
  ]);
  options.onProgress?.(exporting);
  const [[, , date]] = await Promise.all([pinned, exportTree(oracle.upstreamDir, targetSha, oracle.targetCodeDir, options.signal)]);
  return date.trim();
}

/** A SWE-bench instance's oracle: the base, and the base with the test patch as its target. */
async function buildInstanceOracle(spec: TaskSpec, testPatch: string, oracle: OracleLayout, options: MaterializeOptions): Promise<OracleMarker> {
  const signal = options.signal;
  const where = spec.source.kind === 'swe-bench' ? `${spec.source.instancesFile} (${spec.id})` : spec.id;
  options.onProgress?.('Resolving the base commit');
  let baseSha: string;
  try {
    baseSha = await resolveCommit(oracle.upstreamDir, spec.baseSha, { what: 'base_commit', signal });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    throw new UserError(`${where}: base_commit ${spec.baseSha} is not a commit of ${sourceLocation(spec)}. Check the instance.`, {
      detail: err.message,
      cause: err,
    });
  }
  options.onProgress?.('Applying the test patch on the base');
  const target = await commitTestPatch(oracle.upstreamDir, baseSha, testPatch, `${where}`, signal);
  throwIfAborted(signal);
  const baseDate = await pinAndExport(oracle, baseSha, target.sha, 'Exporting the base with the test patch (the oracle)', options);
  await pruneTopLevel(oracle.targetCodeDir, []);
  const marker: OracleMarker = { schema: 1, taskId: spec.id, baseSha, targetSha: target.sha, baseDate, testPaths: target.files };
  await markerFile.write(oracle.markerFile, marker);
  return marker;
}

/** The oracle folder chosen cannot take this task's oracle (the CLI names its option for it). */
export class OracleFolderError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'OracleFolderError';
  }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
