// <E>/cl-results.json: a sequence's results matrix, one row per finished task (one writer: the
// sequence runner, under its lock). Row i holds, for each task j ≤ i, whether task j's tests
// (FAIL_TO_PASS ∪ PASS_TO_PASS) all pass on the code task i ended with: 1, 0, or null when that
// could not be measured.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from '../util/errors';
import { writeJsonAtomic } from '../util/fs-atomic';

export interface ClResults {
  schema: 1;
  sequence: string;
  tasks: string[];
  memory: boolean;
  /** matrix[i] is written when task i is done; entries after i stay null. */
  matrix: Array<Array<number | null> | null>;
  /** Per task: seconds its iterations took and whether its run resolved it. */
  runs: Array<{ seconds: number; resolved: boolean } | null>;
}

export const CL_RESULTS_FILE = 'cl-results.json';

export function clResultsFile(experimentDir: string): string {
  return path.join(path.resolve(experimentDir), CL_RESULTS_FILE);
}

export function emptyClResults(sequence: string, tasks: readonly string[], memory: boolean): ClResults {
  return { schema: 1, sequence, tasks: [...tasks], memory, matrix: tasks.map(() => null), runs: tasks.map(() => null) };
}

export async function readClResults(experimentDir: string): Promise<ClResults | undefined> {
  const file = clResultsFile(experimentDir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const bad = (why: string) => new UserError(`${file} is not a results matrix SWE-CI can read (${why}). Move it away to measure the sequence again.`);
  let r: ClResults;
  try {
    r = JSON.parse(text) as ClResults;
  } catch (err) {
    throw bad((err as Error).message);
  }
  if (r?.schema !== 1 || !Array.isArray(r.tasks) || !Array.isArray(r.matrix) || r.matrix.length !== r.tasks.length || !Array.isArray(r.runs)) {
    throw bad('unknown shape');
  }
  for (const row of r.matrix) {
    if (row !== null && (!Array.isArray(row) || row.length !== r.tasks.length || row.some((v) => v !== null && v !== 0 && v !== 1)))
      throw bad('a row is not 0, 1 or null per task');
  }
  return r;
}

export async function writeClResults(experimentDir: string, results: ClResults): Promise<void> {
  await writeJsonAtomic(clResultsFile(experimentDir), results);
}
