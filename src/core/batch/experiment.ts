// An experiment folder: what `sweci run` writes for a benchmark run over a dataset.
//   <E>/sweci-experiment.json   what was run: dataset, split, run name, tasks, agents (one writer: the first run)
//   <E>/<task_id>/              a normal task folder (opens in the extension: chart, iterations, diffs)
//   <E>/oracles/<task_id>/      each task's oracle, outside its task folder and hidden from agents
//   <E>/.sweci-batch/<task_id>.json   the task's batch state (one writer: the worker holding <task_id>.lock)
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { jsonRecordFile } from '../records/record-file';
import { UserError, errorMessage } from '../util/errors';
import { regularFileIdentity } from '../util/file-identity';
import { EXPERIMENT_FILE, joinName, taskFileOf } from '../workspace/layout';
import { oracleFolderName } from '../workspace/oracle-name';
import { taskFolder, type TaskFolder } from '../workspace/task-folder';

export { EXPERIMENT_FILE };

export interface ExperimentLayout {
  dir: string;
  file: string;
  statusDir: string;
  oraclesDir: string;
  task(taskId: string): TaskFolder;
  oracleDir(taskId: string): string;
  statusFile(taskId: string): string;
  lockFile(taskId: string): string;
}

export function experimentLayout(dir: string): ExperimentLayout {
  const root = path.resolve(dir);
  const statusDir = path.join(root, '.sweci-batch');
  const oraclesDir = path.join(root, 'oracles');
  return {
    dir: root,
    file: path.join(root, EXPERIMENT_FILE),
    statusDir,
    oraclesDir,
    task: (id) => taskFolder(joinName(root, id)),
    oracleDir: (id) => path.join(oraclesDir, oracleFolderName(id)),
    statusFile: (id) => joinName(statusDir, `${id}.json`),
    lockFile: (id) => path.join(statusDir, `${id}.lock`),
  };
}

export const experimentRecordSchema = z.object({
  schema: z.literal(1),
  created: z.string(),
  /** The dataset folder and split the tasks come from. */
  dataset: z.string(),
  split: z.string(),
  /** The run every task records into (its branch is sweci/<run>). */
  run: z.string(),
  /** Agents by label (never their environment or keys). */
  agents: z.object({ architect: z.string(), programmer: z.string() }),
  maxIterations: z.number(),
  /** A task sequence (SWE-Bench-CL): `dataset` is then its file, and the tasks run in this order. */
  sequence: z.object({ id: z.string(), tasks: z.array(z.string()), memory: z.boolean() }).optional(),
});
export type ExperimentRecord = z.infer<typeof experimentRecordSchema>;

const experimentFile = jsonRecordFile({ schema: experimentRecordSchema, whenDamaged: 'Use another --experiment folder.' });

export async function readExperiment(dir: string): Promise<ExperimentRecord | undefined> {
  return experimentFile.read(experimentLayout(dir).file);
}

/**
 * The experiment at `dir`, or the one error every command that takes an experiment gives for a
 * folder that is not one (missing, a file, no or a damaged sweci-experiment.json).
 */
export async function requireExperiment(dir: string): Promise<ExperimentRecord> {
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat) throw new UserError(`${dir} does not exist: give an experiment folder (one "sweci run --experiment" wrote).`);
  if (!stat.isDirectory()) throw new UserError(`${dir} is not an experiment: it is a file, not a folder.`);
  let record: ExperimentRecord | undefined;
  try {
    record = await readExperiment(dir);
  } catch (err) {
    throw new UserError(`${dir} is not an experiment: its ${EXPERIMENT_FILE} cannot be read (${errorMessage(err)}).`);
  }
  if (!record) throw new UserError(`${dir} is not an experiment: it has no ${EXPERIMENT_FILE} (the file "sweci run --experiment" writes).`);
  return record;
}

export async function writeExperiment(dir: string, record: ExperimentRecord): Promise<void> {
  await experimentFile.write(experimentLayout(dir).file, record);
}

/** Task folders of an experiment: subfolders with a .sweci/task.json, by name. */
export async function experimentTaskIds(dir: string): Promise<string[]> {
  return (await experimentTasks(dir)).map((t) => t.id);
}

/** A task folder of an experiment, and its task.json's identity (util/file-identity.ts) as the stat that found it took it. */
export interface ExperimentTask {
  id: string;
  taskFile: string;
}

/** experimentTaskIds's tasks, each with task.json's identity: a reader keyed on it (scoring/run-scores.ts) stats it no second time. */
export async function experimentTasks(dir: string): Promise<ExperimentTask[]> {
  const root = experimentLayout(dir).dir;
  const tasks: ExperimentTask[] = [];
  // One stat per task, synchronous: a promise each costs more than the stat (the paper's scale has thousands).
  for (const id of await experimentTaskCandidates(dir)) {
    const taskFile = regularFileIdentity(taskFileOf(joinName(root, id)));
    if (taskFile !== undefined) tasks.push({ id, taskFile });
  }
  return tasks;
}

/**
 * The names experimentTaskIds picks its tasks from, in its order, not yet checked: a reader that
 * needs only the first task with something tries them in turn (a regular task.json: util/
 * file-identity.ts) instead of checking every folder first.
 */
export async function experimentTaskCandidates(dir: string): Promise<string[]> {
  const layout = experimentLayout(dir);
  let names: string[];
  try {
    names = await fs.readdir(layout.dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UserError(`${layout.dir} does not exist. Give the folder a "sweci run --experiment" wrote.`);
    throw err;
  }
  return names.sort().filter((name) => !name.startsWith('.') && name !== 'oracles');
}
