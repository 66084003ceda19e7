// <E>/cl-results.json: a sequence's results matrix, one row per finished task (one writer: the
// sequence runner, under its lock). Row i holds, for each task j ≤ i, whether task j's tests
// (FAIL_TO_PASS ∪ PASS_TO_PASS) all pass on the code task i ended with: 1, 0, or null when that
// could not be measured.
import * as path from 'node:path';
import { z } from 'zod';
import { jsonRecordFile } from '../records/record-file';

// 1: all of the task's tests pass, 0: not all, null: not measured.
const cell = z
  .number()
  .refine((v): boolean => v === 0 || v === 1, 'is not 0, 1 or null')
  .nullable();

export const clResultsSchema = z
  .object({
    schema: z.literal(1),
    sequence: z.string(),
    tasks: z.array(z.string()),
    memory: z.boolean(),
    /** matrix[i] is written when task i is done; entries after i stay null. */
    matrix: z.array(z.array(cell).nullable()),
    /** Per task: seconds its iterations took and whether its run resolved it. */
    runs: z.array(z.object({ seconds: z.number(), resolved: z.boolean() }).nullable()),
  })
  .refine((r) => r.matrix.length === r.tasks.length && r.runs.length === r.tasks.length, 'has not one row per task')
  .refine((r) => r.matrix.every((row) => row === null || row.length === r.tasks.length), 'has a row without one cell per task');
export type ClResults = z.infer<typeof clResultsSchema>;

const resultsFile = jsonRecordFile({ schema: clResultsSchema, whenDamaged: 'Move it away to measure the sequence again.' });

export const CL_RESULTS_FILE = 'cl-results.json';

export function clResultsFile(experimentDir: string): string {
  return path.join(path.resolve(experimentDir), CL_RESULTS_FILE);
}

export function emptyClResults(sequence: string, tasks: readonly string[], memory: boolean): ClResults {
  return { schema: 1, sequence, tasks: [...tasks], memory, matrix: tasks.map(() => null), runs: tasks.map(() => null) };
}

export async function readClResults(experimentDir: string): Promise<ClResults | undefined> {
  return resultsFile.read(clResultsFile(experimentDir));
}

export async function writeClResults(experimentDir: string, results: ClResults): Promise<void> {
  await resultsFile.write(clResultsFile(experimentDir), results);
}
