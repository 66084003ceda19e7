// sweci checkout / test / status: one task folder at a time.
import * as path from 'node:path';
import { checkOutTask } from '../../core/checkout/check-out-task';
import { instanceResolution } from '../../core/checkout/instance-target';
import { runCurrentTests } from '../../core/checkout/run-current-tests';
import { loadTaskState } from '../../core/checkout/task-state';
import { readPytestSettings } from '../../core/pytest/pytest-settings';
import { readRuntimeSettings } from '../../core/runtime/runtime-settings';
import { describeEnvironment, openTaskEnvironment, type TaskEnvironment, type TaskImageSource } from '../../core/runtime/task-environment';
import { resolveTask } from '../../core/task/resolve-task';
import { resolveSweBenchTask } from '../../core/task/swe-bench-task';
import { imageArchiveOf, type TaskSpec } from '../../core/task/task-spec';
import { UserError } from '../../core/util/errors';
import { userCacheDir } from '../../core/util/user-cache';
import { readEnvironmentRecord } from '../../core/workspace/environment-record';
import { oracleFolderName } from '../../core/workspace/oracle-name';
import { OracleFolderError, readTaskRecord } from '../../core/workspace/materialize';
import { cliSettings, type CliSettings } from '../cli-settings';
import { taskFolder, type TaskFolder } from '../../core/workspace/task-folder';

export interface CommandContext {
  signal: AbortSignal;
  /** Opens the task's environment; the caller disposes of it when the command ends. */
  open(settings: CliSettings, task: TaskImageSource): Promise<TaskEnvironment>;
}

export function progressLine(m: string): void {
  console.error(`… ${m}`);
}

/** Opens environments for one command and closes them (containers go) however it ends. */
export async function withEnvironments<T>(signal: AbortSignal, fn: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const opened: TaskEnvironment[] = [];
  const ctx: CommandContext = {
    signal,
    async open(settings, task) {
      const pytest = readPytestSettings(settings.read, settings.label);
      const env = await openTaskEnvironment(readRuntimeSettings(settings.read, settings.label), task, {
        hostPython: pytest.python,
        signal,
        onProgress: progressLine,
      });
      opened.push(env);
      console.error(`runtime: ${describeEnvironment(env.record)}`);
      if (env.note) console.error(`note: ${env.note}`);
      return env;
    },
  };
  try {
    return await fn(ctx);
  } finally {
    for (const env of opened) await env.dispose();
  }
}

export interface CheckoutValues extends Record<string, unknown> {
  dataset?: string;
  split?: string;
  task?: string;
  instances?: string;
  repos?: string;
  repo?: string;
  base?: string;
  target?: string;
  into?: string;
  oracle?: string;
}

export async function checkoutCommand(values: CheckoutValues, ctx: CommandContext): Promise<number> {
  if (!values.into) throw new UserError('checkout needs --into <dir>: the folder to create the task in.');
  const settings = cliSettings(values, undefined, { runtime: 'auto' });
  const pytest = readPytestSettings(settings.read, settings.label);
  const spec = await resolveSpec(values);
  const task = taskFolder(path.resolve(values.into));
  // One oracle per task: folders of the same task share it, folders of other tasks never do.
  const oracleDir = path.resolve(values.oracle ?? path.join(userCacheDir(), 'oracles', oracleFolderName(spec.id)));
  const env = await ctx.open(settings, { imageArchive: imageArchiveOf(spec) });
  const result = await checkOutTask(spec, {
    ...pytest,
    python: env.python,
    task,
    oracleDir,
    runtime: env.tests,
    environment: env.record,
    runTests: true,
    signal: ctx.signal,
    onProgress: progressLine,
  }).catch((err: unknown) => {
    throw err instanceof OracleFolderError ? new UserError(`${err.message} Give it with --oracle <dir>.`) : err;
  });
  console.log(`checked out ${spec.id} into ${task.root}`);
  if (result.current) printRun(result.current.run.kind, result.current.gap, result.current.run.reason, task);
  if (result.gapMismatch) console.error(`warning: the dataset expects a gap of ${result.gapMismatch.expected}, measured ${result.gapMismatch.measured}`);
  return 0;
}

export async function testCommand(dir: string, values: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  // Options first: a mistyped option is the first thing to fix.
  const settings = cliSettings(values);
  const pytest = readPytestSettings(settings.read, settings.label);
  const task = taskFolder(path.resolve(dir));
  const record = await readTaskRecord(task);
  if (!record) throw new UserError(`${task.root} is not a SWE-CI task folder (no .sweci/task.json). Check a task out first.`);
  // The task runs where it was checked out, unless told otherwise.
  const recorded = await readEnvironmentRecord(task);
  const env = await ctx.open(cliSettings(values, undefined, { runtime: recorded?.runtime ?? 'auto' }), { imageArchive: imageArchiveOf(record.task), recorded });
  const result = await runCurrentTests({ ...pytest, python: env.python, task, record, runtime: env.tests, signal: ctx.signal });
  if (result.restoredTests.length) console.error(`restored the target's tests: ${result.restoredTests.join(', ')}`);
  printRun(result.run.kind, result.gap, result.run.reason, task);
  return result.run.kind === 'ran' ? 0 : 1;
}

export async function statusCommand(dir: string): Promise<number> {
  const task = taskFolder(path.resolve(dir));
  const state = await loadTaskState(task);
  if (!state) throw new UserError(`${task.root} is not a SWE-CI task folder (no .sweci/task.json).`);
  const last = state.lastRun;
  if (last?.kind === 'did-not-run') {
    console.log(`last run (${last.finishedAt}): pytest did not run: ${last.reason}`);
    console.log(`  pytest's output: ${task.current.output}`);
  }
  if (!state.counts) {
    console.log(`${state.record.task.id}: no report yet (run: sweci test ${task.root})`);
    return 0;
  }
  if (last?.kind === 'did-not-run') console.log('the report below is from the last run where pytest ran:');
  console.log(`${state.record.task.id}: ${state.counts.passedNow} / ${state.counts.passedByTarget} passed · gap ${state.counts.gap}`);
  const source = state.record.task.source;
  if (source.kind === 'swe-bench' && state.current) {
    const v = instanceResolution(state.current, source.instance);
    console.log(`SWE-bench: ${v.resolved ? 'resolved' : 'not resolved'} · FAIL_TO_PASS ${v.failToPass.join('/')} · PASS_TO_PASS ${v.passToPass.join('/')}`);
  }
  for (const e of state.entries) console.log(`  ${e.kind.padEnd(13)} ${e.nodeid}`);
  return 0;
}

async function resolveSpec(values: CheckoutValues): Promise<TaskSpec> {
  if (values.instances) {
    if (values.dataset) throw new UserError('checkout takes --instances or --dataset, not both.');
    if (!values.repo && !values.repos)
      throw new UserError("checkout --instances needs --repo <clone> or --repos <folder of clones>: the instance's repository.");
    return resolveSweBenchTask(values.instances, values.task, { repoPath: values.repo, reposDir: values.repos });
  }
  if (values.dataset) {
    if (!values.task) throw new UserError('checkout --dataset needs --task <task_id>.');
    return resolveTask({ kind: 'dataset', datasetDir: values.dataset, split: values.split, taskId: values.task });
  }
  if (values.repo) {
    if (!values.base || !values.target) throw new UserError('checkout --repo needs --base <ref> and --target <ref>.');
    return resolveTask({ kind: 'git', repoPath: values.repo, baseRef: values.base, targetRef: values.target });
  }
  throw new UserError(
    'checkout needs --dataset <dir> --task <id>, --repo <dir> --base <ref> --target <ref>, or --instances <file> [--task <instance_id>] with --repo or --repos.',
  );
}

function printRun(kind: string, gap: number | undefined, reason: string | undefined, task: TaskFolder): void {
  if (kind === 'ran') return console.log(`pytest ran: gap ${gap}`);
  console.log(`pytest did not run: ${reason}`);
  console.log(`  pytest's output: ${task.current.output}`);
}
