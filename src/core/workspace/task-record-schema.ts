// `.sweci/task.json`: identifies a folder as a task and points at its oracle. The type comes
// from the schema; task-record.ts reads and writes the file.
import { z } from 'zod';
import { taskSpecSchema } from '../task/task-spec';

/** A posix path that stays inside the folder it is relative to. */
function isSafeRelativePath(p: string): boolean {
  return p !== '' && !p.startsWith('/') && !p.includes('\\') && p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

export const taskRecordSchema = z.object({
  schema: z.literal(1),
  task: taskSpecSchema,
  /** Absolute path of the oracle folder (outside the workspace). */
  oracleDir: z.string().min(1),
  createdAt: z.string().min(1),
  /** Sha of the first commit of app/code's fresh repository (the base). */
  baseCommit: z.string().min(1),
  /**
   * The task's tests, relative to app/code, put back from the target before every pytest run:
   * absent for SWE-CI tasks (the `tests/` folder); for a SWE-bench instance, the files its test
   * patch touches (as SWE-bench resets them before it evaluates).
   */
  testPaths: z.array(z.string().refine(isSafeRelativePath, 'is not a path inside app/code')).optional(),
});
export type TaskRecord = z.infer<typeof taskRecordSchema>;
