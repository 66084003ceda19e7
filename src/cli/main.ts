// sweci: the same engine as the extension, headless.
//   sweci checkout --dataset <dir> --task <id> --into <dir> [--split <name>]
//   sweci checkout --repo <dir> --base <ref> --target <ref> --into <dir>
//   sweci test <task-dir>        re-run pytest, regenerate app/non-passed
//   sweci status <task-dir>      print the non-passed tests
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkOutTask } from '../core/checkout/check-out-task';
import { runCurrentTests, type PytestSettings } from '../core/checkout/run-current-tests';
import { loadTaskState } from '../core/checkout/task-state';
import type { PytestFormat } from '../core/pytest/run-pytest';
import { LocalRuntime } from '../core/runtime/local-runtime';
import { listSplits, readDatasetTasks } from '../core/task/dataset';
import { taskFromGitPair } from '../core/task/git-pair';
import type { TaskSpec } from '../core/task/task-spec';
import { UserError } from '../core/util/errors';
import { readTaskRecord } from '../core/workspace/materialize';

const USAGE = `usage:
  sweci checkout --dataset <dir> --task <id> --into <dir> [--split <name>]
  sweci checkout --repo <dir> --base <ref> --target <ref> --into <dir>
  sweci test <task-dir>
  sweci status <task-dir>
options: --python <exe> (python3)  --timeout <seconds> (3600)  --format auto|json-report|junit
         --oracle <dir> (where the oracle is kept; default ~/.cache/swe-ci/oracles/<task>)`;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    // node:util's parseArgs explains the problem; say it plainly and show the usage.
    console.error(`error: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  return run(values, positionals);
}

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string' },
      task: { type: 'string' },
      repo: { type: 'string' },
      base: { type: 'string' },
      target: { type: 'string' },
      into: { type: 'string' },
      oracle: { type: 'string' },
      python: { type: 'string', default: 'python3' },
      timeout: { type: 'string', default: '3600' },
      format: { type: 'string', default: 'auto' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function run(values: ReturnType<typeof parseCommandLine>['values'], positionals: string[]): Promise<number> {
  const [command, dirArg] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const timeoutSec = Number(values.timeout);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0) throw new UserError(`--timeout must be a positive number of seconds, not "${values.timeout}".`);
  if (!['auto', 'json-report', 'junit'].includes(values.format!)) throw new UserError(`--format must be auto, json-report or junit.`);
  const settings: PytestSettings = { python: values.python!, timeoutMs: timeoutSec * 1000, format: values.format as PytestFormat };
  const runtime = new LocalRuntime();
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());

  switch (command) {
    case 'checkout': {
      if (!values.into) throw new UserError('checkout needs --into <dir>: the folder to create the task in.');
      const spec = await resolveSpec(values);
      const taskDir = path.resolve(values.into);
      const oracleDir = path.resolve(values.oracle ?? path.join(defaultCacheDir(), 'oracles', path.basename(taskDir)));
      const result = await checkOutTask(spec, {
        ...settings,
        taskDir,
        oracleDir,
        runtime,
        runTests: true,
        signal: abort.signal,
        onProgress: (m) => console.error(`… ${m}`),
      });
      console.log(`checked out ${spec.id} into ${taskDir}`);
      if (result.current) printRun(result.current.run.kind, result.current.gap, result.current.run.reason);
      if (result.gapMismatch) console.error(`warning: the dataset expects a gap of ${result.gapMismatch.expected}, measured ${result.gapMismatch.measured}`);
      return 0;
    }
    case 'test': {
      const taskDir = requireTaskDir(dirArg);
      const record = await readTaskRecord(taskDir);
      if (!record) throw new UserError(`${taskDir} is not a SWE-CI task folder (no .sweci/task.json). Check a task out first.`);
      const result = await runCurrentTests({ ...settings, taskDir, record, runtime, signal: abort.signal });
      if (result.restoredTests.length) console.error(`restored the target's tests: ${result.restoredTests.join(', ')}`);
      printRun(result.run.kind, result.gap, result.run.reason);
      return result.run.kind === 'ran' ? 0 : 1;
    }
    case 'status': {
      const taskDir = requireTaskDir(dirArg);
      const state = await loadTaskState(taskDir);
      if (!state) throw new UserError(`${taskDir} is not a SWE-CI task folder (no .sweci/task.json).`);
      if (!state.counts) {
        console.log(`${state.record.task.id}: no report yet (run: sweci test ${taskDir})`);
        return 0;
      }
      console.log(`${state.record.task.id}: ${state.counts.passedNow} / ${state.counts.passedByTarget} passed · gap ${state.counts.gap}`);
      for (const e of state.entries) console.log(`  ${e.kind.padEnd(13)} ${e.nodeid}`);
      return 0;
    }
    default:
      throw new UserError(`unknown command "${command}".\n${USAGE}`);
  }
}

async function resolveSpec(values: { dataset?: string; split?: string; task?: string; repo?: string; base?: string; target?: string }): Promise<TaskSpec> {
  if (values.dataset) {
    if (!values.task) throw new UserError('checkout --dataset needs --task <task_id>.');
    const split = values.split ?? (await listSplits(values.dataset))[0];
    const spec = (await readDatasetTasks(values.dataset, split)).find((t) => t.id === values.task);
    if (!spec) throw new UserError(`task ${values.task} is not in ${values.dataset} (split ${split}).`);
    return spec;
  }
  if (values.repo) {
    if (!values.base || !values.target) throw new UserError('checkout --repo needs --base <ref> and --target <ref>.');
    return taskFromGitPair(values.repo, values.base, values.target);
  }
  throw new UserError('checkout needs either --dataset <dir> --task <id>, or --repo <dir> --base <ref> --target <ref>.');
}

function requireTaskDir(dir: string | undefined): string {
  if (!dir) throw new UserError('give the task folder, e.g. sweci test ./my-task');
  return path.resolve(dir);
}

function printRun(kind: string, gap: number | undefined, reason: string | undefined): void {
  console.log(kind === 'ran' ? `pytest ran: gap ${gap}` : `pytest did not run: ${reason}`);
}

function defaultCacheDir(): string {
  return process.env.XDG_CACHE_HOME ? path.join(process.env.XDG_CACHE_HOME, 'swe-ci') : path.join(os.homedir(), '.cache', 'swe-ci');
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof UserError ? `error: ${err.message}` : err);
      process.exit(1);
    },
  );
}
