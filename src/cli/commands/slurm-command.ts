// sweci slurm: the benchmark as a Slurm job array, one task per element, in an experiment
// folder every node shares. It takes `sweci run`'s flags and passes them on to each element's
// `sweci run`; the experiment's settings are written here first, so every element agrees.
import { execFile } from 'node:child_process';
import { plural } from '../../core/util/plural';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Option } from 'commander';
import { openExperiment } from '../../core/batch/run-batch';
import { selectTasks } from '../../core/batch/select-tasks';
import { readTaskStatus } from '../../core/batch/task-status';
import { FINISHED_STATES, type TaskStatus } from '../../core/records/task-status-file';
import { experimentLayout, requireExperiment } from '../../core/batch/experiment';
import { readSbatchOptions, type SbatchFlags } from '../../core/slurm/sbatch-options';
import { sbatchScript } from '../../core/slurm/sbatch-script';
import { readSubmissions, slurmFolder, writeScriptFiles, writeSubmission } from '../../core/slurm/slurm-folder';
import { querySlurmJobs } from '../../core/slurm/slurm-jobs';
import { slurmStatus, slurmStatusText } from '../../core/slurm/slurm-status';
import { listSplits, readDatasetTasks } from '../../core/task/dataset';
import { UserError } from '../../core/util/errors';
import { flagHoldingSecret } from '../../core/util/secret-mask';
import { commaList } from '../../core/util/setting-reader';
import { batchSettingsOf, defaultRunName, readHeadlessSettings, type RunValues } from './run-settings';

export interface SlurmValues extends RunValues, SbatchFlags {
  onlyUnfinished?: boolean;
  submit?: boolean;
  sweci?: string;
}

/** Options of `sweci slurm` itself, not passed on to the elements' `sweci run`. */
const SLURM_ONLY = new Set(['partition', 'time', 'grace', 'cpusPerTask', 'mem', 'maxParallel', 'account', 'sbatchArg', 'onlyUnfinished', 'submit', 'sweci']);
/** Run flags the script sets for each element (the selection is the task list). */
const SET_PER_ELEMENT = new Set(['dataset', 'split', 'experiment', 'run', 'tasks', 'tasksFile']);
/** Run flags an array cannot take, with why. */
const REFUSED: Record<string, string> = {
  taskIndex: 'each element picks its task from the task list beside the script',
  workers: 'each element runs one task; --max-parallel sets how many run at once',
  sequence: "a sequence's tasks run one after another, in one process: use sweci run",
  sequenceId: 'a sequence runs with sweci run',
  repo: 'a sequence runs with sweci run',
  repos: 'a sequence runs with sweci run',
  memory: 'a sequence runs with sweci run',
  zeroShot: 'a sequence runs with sweci run',
  matrix: 'a sequence runs with sweci run',
  clWeights: 'a sequence runs with sweci run',
};

export async function slurmCommand(values: SlurmValues, options: readonly Option[]): Promise<number> {
  for (const [key, why] of Object.entries(REFUSED)) {
    if (values[key] !== undefined) throw new UserError(`sweci slurm takes no ${longOf(options, key)}: ${why}.`);
  }
  if (!values.dataset) throw new UserError('slurm needs --dataset <dir>: the dataset, in a folder every node reads at the same path.');
  if (!values.experiment)
    throw new UserError('slurm needs --experiment <dir>: the results folder, shared by every node at the same path (created if missing).');
  const experimentDir = path.resolve(values.experiment);
  if (/[\s%]/.test(experimentDir)) {
    throw new UserError(`The experiment folder ${experimentDir} holds a space or a %, which sbatch's log paths cannot take: choose a folder without them.`);
  }
  const sbatch = readSbatchOptions(values);
  const settings = await readHeadlessSettings(values);
  const datasetDir = path.resolve(values.dataset);
  const split = values.split ?? (await listSplits(datasetDir))[0];
  const selected = await selectTasks(
    await readDatasetTasks(datasetDir, split),
    { ids: values.tasks ? commaList(values.tasks) : undefined, idsFile: values.tasksFile },
    `${datasetDir} (split ${split})`,
  );
  const run = await defaultRunName(values, experimentDir, settings.agents);
  // Checks the cost flags too; nothing runs here, so the signal never fires.
  const batch = batchSettingsOf(values, settings, { experimentDir, run, humanHistory: !!values.humanHistory, signal: new AbortController().signal });
  const tasks = values.onlyUnfinished
    ? await unfinished(
        experimentDir,
        selected.map((s) => s.id),
      )
    : selected.map((s) => s.id);
  const runFlags = argvOf(options, values, (key) => !SLURM_ONLY.has(key) && !SET_PER_ELEMENT.has(key));
  // The script, the submission record and the logs are files on the shared folder: no flag may
  // hold a key's value (a model name that is the key, say) or a secret written inline.
  const holding = flagHoldingSecret(
    argvOf(options, values, () => true),
    Object.values(batch.secretEnv),
  );
  if (holding) {
    throw new UserError(
      `The flag ${holding.flag} holds a secret${holding.variable ? ` (${holding.variable}=…)` : ''}: give a key by variable instead (export it in the environment you submit from, and name it with --api-key-env; sbatch passes the environment to the elements). The script is a file on the shared folder.`,
    );
  }
  if (tasks.length === 0) {
    console.log(`every selected task of ${experimentDir} is finished: nothing to submit`);
    return 0;
  }
  const sweci = values.sweci ? [values.sweci] : await thisSweci();

  // Every check passed: from here on, files are written.
  await openExperiment(batch, { dataset: datasetDir, split });
  const folder = slurmFolder(experimentDir);
  const runArgs = ['run', '--dataset', datasetDir, '--split', split, '--experiment', experimentDir, '--run', run, ...runFlags];
  const name = await writeScriptFiles(folder, run, tasks, (n) =>
    sbatchScript({
      jobName: `sweci-${run}`,
      taskCount: tasks.length,
      tasksFile: folder.tasks(n),
      logsDir: folder.logsDir,
      jobDir: folder.dir,
      workDir: process.cwd(),
      sweci,
      runArgs,
      options: sbatch,
    }),
  );
  const script = folder.script(name);
  console.log(script);
  if (!values.submit) return 0;
  const job = await submit(script);
  // The command as it would write this script again: paths resolved, the user's flags as given.
  const command = [
    'sweci',
    'slurm',
    ...argvOf(options, { ...values, dataset: datasetDir, experiment: experimentDir, split, run }, (key) => key !== 'submit' && key !== 'onlyUnfinished'),
  ];
  await writeSubmission(folder, { name, job, submitted: new Date().toISOString(), tasks, command, workDir: process.cwd() });
  console.log(`submitted job ${job}: ${plural(tasks.length, 'task')}${sbatch.maxParallel !== undefined ? `, at most ${sbatch.maxParallel} at a time` : ''}`);
  return 0;
}

export async function slurmStatusCommand(dir: string, values: { json?: boolean }): Promise<number> {
  const experimentDir = path.resolve(dir);
  await requireExperiment(experimentDir);
  const submissions = await readSubmissions(slurmFolder(experimentDir));
  const statuses = new Map<string, TaskStatus>();
  const layout = experimentLayout(experimentDir);
  const files = await fs.readdir(layout.statusDir).catch(() => [] as string[]);
  const ids = new Set([...submissions.flatMap((s) => s.tasks), ...files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length))]);
  for (const id of ids) {
    const status = await readTaskStatus(experimentDir, id);
    if (status) statuses.set(id, status);
  }
  const elements = submissions.length > 0 ? await querySlurmJobs([...new Set(submissions.map((s) => s.job))]) : [];
  const status = slurmStatus(submissions, statuses, elements);
  process.stdout.write(values.json ? `${JSON.stringify({ experiment: experimentDir, ...status }, null, 2)}\n` : slurmStatusText(status, experimentDir));
  return 0;
}

/** The tasks whose state in .sweci-batch is not finished (none yet counts as unfinished). */
async function unfinished(experimentDir: string, ids: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of ids) {
    const status = await readTaskStatus(experimentDir, id);
    if (!status || !FINISHED_STATES.includes(status.state)) out.push(id);
  }
  return out;
}

/** The options given, as words again: `--flag value`, `--flag=value` when the value looks like a flag, `--flag` for a switch. */
function argvOf(options: readonly Option[], values: Record<string, unknown>, keep: (key: string) => boolean): string[] {
  const words: string[] = [];
  for (const o of options) {
    const key = o.attributeName();
    const v = values[key];
    if (v === undefined || v === false || !o.long || !keep(key)) continue;
    if (!(o.required || o.optional)) {
      words.push(o.long);
      continue;
    }
    for (const item of Array.isArray(v) ? v : [v]) {
      const text = String(item);
      if (text.startsWith('-')) words.push(`${o.long}=${text}`);
      else words.push(o.long, text);
    }
  }
  return words;
}

function longOf(options: readonly Option[], key: string): string {
  return options.find((o) => o.attributeName() === key)?.long ?? key;
}

/** This sweci, by absolute path: node and the script it runs. */
async function thisSweci(): Promise<string[]> {
  const script = process.argv[1];
  if (!script) throw new UserError('Cannot tell where this sweci is: give --sweci <exe>, the sweci the nodes run.');
  return [process.execPath, await fs.realpath(script)];
}

/** `sbatch --parsable <script>`: the job id. */
function submit(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('sbatch', ['--parsable', script], { encoding: 'utf8' }, (err, stdout, stderr) => {
      if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
        reject(new UserError(`sbatch is not on the PATH: submit ${script} on the cluster's login node (sbatch ${script}), or run sweci slurm --submit there.`));
        return;
      }
      const job = /^(\d+)/.exec(stdout.trim())?.[1];
      if (err || !job) {
        reject(new UserError(`sbatch refused ${script}: ${(stderr || stdout || errMessage(err)).trim()}`));
        return;
      }
      resolve(job);
    });
  });
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
