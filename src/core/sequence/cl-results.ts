// <E>/cl-results.json: a sequence's results matrix, one row per finished task (one writer: the
// sequence runner, under its lock). Row i holds, for each task j ≤ i, how task j's tests
// (FAIL_TO_PASS ∪ PASS_TO_PASS) do on the code task i ended with: the fraction that pass (the
// paper's a_ij) or whether the task is resolved (1, 0), as `cells` says; null when that could not
// be measured.
import * as path from 'node:path';
import { z } from 'zod';
import { jsonRecordFile } from '../records/record-file';
import { MATRIX_CELLS, type MatrixCells } from './sequence-settings';

// A success rate from 0 to 1 (1 or 0 only when the matrix holds resolved), or null: not measured.
const cell = z.number().min(0).max(1).nullable();

export const clResultsSchema = z
  .object({
    schema: z.literal(1),
    sequence: z.string(),
    tasks: z.array(z.string()),
    memory: z.boolean(),
    /** What each entry holds (sequence-settings.ts MATRIX_CELLS); files from before this field hold 'resolved'. */
    cells: z.enum(MATRIX_CELLS).default('resolved'),
    /** matrix[i] is written when task i is done; entries after i stay null. */
    matrix: z.array(z.array(cell).nullable()),
    /** Per task: seconds its iterations took and whether its run resolved it. */
    runs: z.array(z.object({ seconds: z.number(), resolved: z.boolean() }).nullable()),
  })
  .refine((r) => r.matrix.length === r.tasks.length && r.runs.length === r.tasks.length, 'has not one row per task')
  .refine((r) => r.matrix.every((row) => row === null || row.length === r.tasks.length), 'has a row without one cell per task')
  .refine(
    (r) => r.cells !== 'resolved' || r.matrix.every((row) => row === null || row.every((v) => v === null || v === 0 || v === 1)),
    'holds resolved cells other than 0, 1 or null',
  );
export type ClResults = z.infer<typeof clResultsSchema>;

const resultsFile = jsonRecordFile({ schema: clResultsSchema, whenDamaged: 'Move it away to measure the sequence again.' });

export const CL_RESULTS_FILE = 'cl-results.json';

export function clResultsFile(experimentDir: string): string {
  return path.join(path.resolve(experimentDir), CL_RESULTS_FILE);
}

export function emptyClResults(sequence: string, tasks: readonly string[], memory: boolean, cells: MatrixCells = 'fraction'): ClResults {
  return { schema: 1, sequence, tasks: [...tasks], memory, cells, matrix: tasks.map(() => null), runs: tasks.map(() => null) };
}

export async function readClResults(experimentDir: string): Promise<ClResults | undefined> {
  return resultsFile.read(clResultsFile(experimentDir));
}

export async function writeClResults(experimentDir: string, results: ClResults): Promise<void> {
  await resultsFile.write(clResultsFile(experimentDir), results);
}
