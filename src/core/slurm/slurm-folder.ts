// What `sweci slurm` keeps in the experiment folder, beside the tasks:
//   <E>/slurm/<run>-<n>.sbatch     the n-th batch script of the run (a job array)
//   <E>/slurm/<run>-<n>.tasks      its task list: array index i runs the task on line i + 1
//   <E>/slurm/<run>-<n>.job.json   the array's job id, once submitted, and the command that wrote it
//   <E>/slurm/logs/<job>_<index>.log   one log per element (a requeued element appends to it)
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { jsonRecordFile } from '../records/record-file';

export interface SlurmFolder {
  dir: string;
  logsDir: string;
  script(name: string): string;
  tasks(name: string): string;
  job(name: string): string;
}

export function slurmFolder(experimentDir: string): SlurmFolder {
  const dir = path.join(path.resolve(experimentDir), 'slurm');
  return {
    dir,
    logsDir: path.join(dir, 'logs'),
    script: (name) => path.join(dir, `${name}.sbatch`),
    tasks: (name) => path.join(dir, `${name}.tasks`),
    job: (name) => path.join(dir, `${name}.job.json`),
  };
}

export const submissionSchema = z.object({
  schema: z.literal(1),
  /** `<run>-<n>`: the script, task list and record share it. */
  name: z.string(),
  /** The array's job id, as sbatch --parsable printed it. */
  job: z.string(),
  submitted: z.string(),
  /** The task ids, index i on line i + 1 of the task list. */
  tasks: z.array(z.string()),
  /** The `sweci slurm` command line that wrote the script, without --submit and --only-unfinished. */
  command: z.array(z.string()),
  /** Where it ran: the command's relative paths (a --config file) are relative to it. */
  workDir: z.string(),
});
export type Submission = z.infer<typeof submissionSchema>;

const submissionFile = jsonRecordFile({ schema: submissionSchema, whenDamaged: 'Delete it: sweci slurm status then no longer shows that array.' });

/**
 * Writes the task list and the script under the run's next free number. Both are created
 * exclusively, so two `sweci slurm` at once never share a number. Returns the name.
 */
export async function writeScriptFiles(folder: SlurmFolder, run: string, tasks: readonly string[], script: (name: string) => string): Promise<string> {
  await fs.mkdir(folder.logsDir, { recursive: true });
  for (let n = await nextNumber(folder, run); ; n++) {
    const name = `${run}-${n}`;
    try {
      await fs.writeFile(folder.tasks(name), tasks.map((t) => `${t}\n`).join(''), { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    await fs.writeFile(folder.script(name), script(name), { flag: 'wx', mode: 0o755 });
    return name;
  }
}

async function nextNumber(folder: SlurmFolder, run: string): Promise<number> {
  const names = await fs.readdir(folder.dir).catch(() => [] as string[]);
  const prefix = `${run}-`;
  const used = names
    .filter((f) => f.startsWith(prefix) && f.endsWith('.tasks'))
    .map((f) => Number(f.slice(prefix.length, -'.tasks'.length)))
    .filter((n) => Number.isInteger(n) && n > 0);
  return used.length > 0 ? Math.max(...used) + 1 : 1;
}

export async function writeSubmission(folder: SlurmFolder, submission: Omit<Submission, 'schema'>): Promise<void> {
  await submissionFile.write(folder.job(submission.name), { schema: 1, ...submission });
}

/** Every submitted array of the experiment, oldest first. */
export async function readSubmissions(folder: SlurmFolder): Promise<Submission[]> {
  const names = await fs.readdir(folder.dir).catch(() => [] as string[]);
  const all: Submission[] = [];
  for (const f of names.filter((n) => n.endsWith('.job.json'))) {
    const s = await submissionFile.read(path.join(folder.dir, f));
    if (s) all.push(s);
  }
  return all.sort((a, b) => a.submitted.localeCompare(b.submitted) || a.name.localeCompare(b.name, undefined, { numeric: true }));
}
