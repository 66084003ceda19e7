// `.sweci/task.json`: reading it back, with a clear error when it is damaged.
import { promises as fs } from 'node:fs';
import { UserError, errorMessage } from '../util/errors';
import { writeJsonAtomic } from '../util/fs-atomic';
import { taskLayout, type TaskRecord } from './layout';

function corrupt(file: string, why: string, cause?: unknown): UserError {
  return new UserError(
    `${file} is corrupt (${why}). Check the task out again into an empty folder, or restore the file from a backup.`,
    cause !== undefined ? { detail: errorMessage(cause), cause } : undefined,
  );
}

/** The task record of `taskDir`, or undefined when the folder holds none. */
export async function readTaskRecord(taskDir: string): Promise<TaskRecord | undefined> {
  const file = taskLayout(taskDir).taskFile;
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UserError(`Cannot read ${file} (${errorMessage(err)}). Check its permissions.`, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw corrupt(file, 'not valid JSON', err);
  }
  const problem = recordProblem(value);
  if (problem) throw corrupt(file, problem);
  return value as TaskRecord;
}

function recordProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const r = v as Record<string, unknown>;
  if (r.schema !== 1) return `unknown schema ${JSON.stringify(r.schema)}`;
  for (const k of ['oracleDir', 'createdAt', 'baseCommit'] as const) {
    if (typeof r[k] !== 'string' || r[k] === '') return `"${k}" is missing`;
  }
  const t = r.task as Record<string, unknown> | undefined;
  if (typeof t !== 'object' || t === null) return '"task" is missing';
  for (const k of ['id', 'baseSha', 'targetSha'] as const) {
    if (typeof t[k] !== 'string' || t[k] === '') return `"task.${k}" is missing`;
  }
  const s = t.source as Record<string, unknown> | undefined;
  if (typeof s !== 'object' || s === null || (s.kind !== 'dataset' && s.kind !== 'git' && s.kind !== 'swe-bench'))
    return '"task.source" is missing or of unknown kind';
  if (r.testPaths !== undefined && (!Array.isArray(r.testPaths) || !r.testPaths.every(isSafeRelativePath)))
    return '"testPaths" is not a list of paths inside app/code';
  return undefined;
}

/** A posix path that stays inside the folder it is relative to. */
function isSafeRelativePath(p: unknown): boolean {
  return typeof p === 'string' && p !== '' && !p.startsWith('/') && !p.includes('\\') && p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

export async function writeTaskRecord(taskDir: string, record: TaskRecord): Promise<void> {
  await writeJsonAtomic(taskLayout(taskDir).taskFile, record);
}
