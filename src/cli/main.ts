// sweci: the same engine as the extension, headless.
//   sweci checkout --dataset <dir> --task <id> --into <dir> [--split <name>] [--runtime auto|docker|local] [--image <tag>]
//   sweci checkout --repo <dir> --base <ref> --target <ref> --into <dir>
//   sweci test <task-dir>        re-run pytest (where the task was checked out), regenerate app/non-passed
//   sweci status <task-dir>      print the non-passed tests
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkOutTask } from '../core/checkout/check-out-task';
import { runCurrentTests } from '../core/checkout/run-current-tests';
import { loadTaskState } from '../core/checkout/task-state';
import { readPytestSettings, type PytestSettings } from '../core/pytest/pytest-settings';
import { readRuntimeSettings, type RuntimeSettings } from '../core/runtime/runtime-settings';
import { describeEnvironment, openTaskEnvironment, type TaskEnvironment } from '../core/runtime/task-environment';
import { readEnvironmentRecord } from '../core/workspace/environment-record';
import { listSplits, readDatasetTasks } from '../core/task/dataset';
import { taskFromGitPair } from '../core/task/git-pair';
import { imageArchiveOf, type TaskSpec } from '../core/task/task-spec';
import { UserError } from '../core/util/errors';
import { OracleFolderError, readTaskRecord } from '../core/workspace/materialize';
import { taskLayout } from '../core/workspace/layout';
import { currentOutputFile } from '../core/checkout/report-store';

const USAGE = `usage:
  sweci checkout --dataset <dir> --task <id> --into <dir> [--split <name>]
  sweci checkout --repo <dir> --base <ref> --target <ref> --into <dir>
  sweci test <task-dir>
  sweci status <task-dir>
options: --python <exe> (python3)  --timeout <seconds> (3600)  --format auto|json-report|builtin|junit
         --env NAME=VALUE (added to pytest's clean environment; may be repeated)
         --oracle <dir> (where the oracle is kept; default ~/.cache/swe-ci/oracles/<task id>)
         --runtime auto|docker|local (checkout: auto; test: what the task was checked out with)
         --sandbox auto|bubblewrap|off (local runs confined with bubblewrap; auto: when it works here)
         --image <tag> (an image the engine has, instead of the task's image.tar.gz)
         --docker-python <exe> (python)  --memory-mb <MiB> (8192)  --cpus <n> (0: no limit)
         --socket <path> (the Docker engine; default DOCKER_HOST, else /var/run/docker.sock)`;

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
      python: { type: 'string' },
      timeout: { type: 'string' },
      format: { type: 'string' },
      env: { type: 'string', multiple: true },
      runtime: { type: 'string' },
      sandbox: { type: 'string' },
      image: { type: 'string' },
      'docker-python': { type: 'string' },
      'memory-mb': { type: 'string' },
      cpus: { type: 'string' },
      socket: { type: 'string' },
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
  const settings = pytestSettingsFrom(values);
  const abort = new AbortController();
  // Stopped by a user, a job runner or a closed terminal: every process it started stops too.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => abort.abort());
  let env: TaskEnvironment | undefined;
  const open = async (runtime: RuntimeSettings, task: Parameters<typeof openTaskEnvironment>[1]): Promise<TaskEnvironment> => {
    env = await openTaskEnvironment(runtime, task, {
      hostPython: settings.python,
      signal: abort.signal,
      onProgress: (m) => console.error(`… ${m}`),
    });
    console.error(`runtime: ${describeEnvironment(env.record)}`);
    if (env.note) console.error(`note: ${env.note}`);
    return env;
  };
  try {
    return await runCommand(command, dirArg, values, settings, abort, open);
  } finally {
    // Containers go with the command, whatever happened.
    await env?.dispose();
  }
}

async function runCommand(
  command: string,
  dirArg: string | undefined,
  values: ReturnType<typeof parseCommandLine>['values'],
  settings: PytestSettings,
  abort: AbortController,
  open: (runtime: RuntimeSettings, task: Parameters<typeof openTaskEnvironment>[1]) => Promise<TaskEnvironment>,
): Promise<number> {

  switch (command) {
    case 'checkout': {
      if (!values.into) throw new UserError('checkout needs --into <dir>: the folder to create the task in.');
      const spec = await resolveSpec(values);
      const taskDir = path.resolve(values.into);
      // One oracle per task: folders of the same task share it, folders of other tasks never do.
      const oracleDir = path.resolve(values.oracle ?? path.join(defaultCacheDir(), 'oracles', spec.id.replace(/[^A-Za-z0-9._-]/g, '_')));
      const env = await open(runtimeSettingsFrom(values, 'auto'), { imageArchive: imageArchiveOf(spec) });
      const result = await checkOutTask(spec, {
        ...settings,
        python: env.python,
        taskDir,
        oracleDir,
        runtime: env.tests,
        environment: env.record,
        runTests: true,
        signal: abort.signal,
        onProgress: (m) => console.error(`… ${m}`),
      }).catch((err: unknown) => {
        throw err instanceof OracleFolderError ? new UserError(`${err.message} Give it with --oracle <dir>.`) : err;
      });
      console.log(`checked out ${spec.id} into ${taskDir}`);
      if (result.current) printRun(result.current.run.kind, result.current.gap, result.current.run.reason, taskDir);
      if (result.gapMismatch) console.error(`warning: the dataset expects a gap of ${result.gapMismatch.expected}, measured ${result.gapMismatch.measured}`);
      return 0;
    }
    case 'test': {
      const taskDir = requireTaskDir(dirArg);
      const record = await readTaskRecord(taskDir);
      if (!record) throw new UserError(`${taskDir} is not a SWE-CI task folder (no .sweci/task.json). Check a task out first.`);
      // The task runs where it was checked out, unless told otherwise.
      const recorded = await readEnvironmentRecord(taskDir);
      const env = await open(runtimeSettingsFrom(values, recorded?.runtime ?? 'auto'), {
        imageArchive: imageArchiveOf(record.task),
        recorded,
      });
      const result = await runCurrentTests({ ...settings, python: env.python, taskDir, record, runtime: env.tests, signal: abort.signal });
      if (result.restoredTests.length) console.error(`restored the target's tests: ${result.restoredTests.join(', ')}`);
      printRun(result.run.kind, result.gap, result.run.reason, taskDir);
      return result.run.kind === 'ran' ? 0 : 1;
    }
    case 'status': {
      const taskDir = requireTaskDir(dirArg);
      const state = await loadTaskState(taskDir);
      if (!state) throw new UserError(`${taskDir} is not a SWE-CI task folder (no .sweci/task.json).`);
      const last = state.lastRun;
      if (last?.kind === 'did-not-run') {
        console.log(`last run (${last.finishedAt}): pytest did not run: ${last.reason}`);
        console.log(`  pytest's output: ${currentOutputFile(taskLayout(taskDir))}`);
      }
      if (!state.counts) {
        console.log(`${state.record.task.id}: no report yet (run: sweci test ${taskDir})`);
        return 0;
      }
      if (last?.kind === 'did-not-run') console.log('the report below is from the last run where pytest ran:');
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

/** The command line's pytest options, read by the same parser as the extension's settings. */
function pytestSettingsFrom(values: ReturnType<typeof parseCommandLine>['values']): PytestSettings {
  const env: Record<string, string> = {};
  for (const pair of values.env ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UserError(`--env takes NAME=VALUE, not "${pair}".`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const options: Record<string, [string, unknown]> = {
    python: ['--python', values.python],
    'pytest.timeoutSeconds': ['--timeout', values.timeout],
    'pytest.reportFormat': ['--format', values.format],
    'pytest.env': ['--env', env],
  };
  return readPytestSettings(
    (key) => options[key]?.[1],
    (key) => options[key]?.[0] ?? key,
  );
}

/** The command line's runtime options, read by the same parser as the extension's settings. */
function runtimeSettingsFrom(values: ReturnType<typeof parseCommandLine>['values'], defaultRuntime: string): RuntimeSettings {
  const options: Record<string, [string, string | undefined]> = {
    runtime: ['--runtime', values.runtime ?? defaultRuntime],
    sandbox: ['--sandbox', values.sandbox],
    'docker.image': ['--image', values.image],
    'docker.python': ['--docker-python', values['docker-python']],
    'docker.memoryMb': ['--memory-mb', values['memory-mb']],
    'docker.cpus': ['--cpus', values.cpus],
    'docker.socketPath': ['--socket', values.socket],
  };
  return readRuntimeSettings(
    (key) => options[key]?.[1],
    (key) => options[key]?.[0] ?? key,
  );
}

function requireTaskDir(dir: string | undefined): string {
  if (!dir) throw new UserError('give the task folder, e.g. sweci test ./my-task');
  return path.resolve(dir);
}

function printRun(kind: string, gap: number | undefined, reason: string | undefined, taskDir: string): void {
  if (kind === 'ran') return console.log(`pytest ran: gap ${gap}`);
  console.log(`pytest did not run: ${reason}`);
  console.log(`  pytest's output: ${currentOutputFile(taskLayout(taskDir))}`);
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
