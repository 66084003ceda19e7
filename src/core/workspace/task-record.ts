// `.sweci/task.json`: its one reader and writer (the schema is in task-record-schema.ts).
import { jsonRecordFile } from '../records/record-file';
import { taskLayout } from './layout';
import { taskRecordSchema, type TaskRecord } from './task-record-schema';

const taskFile = jsonRecordFile({
  schema: taskRecordSchema,
  whenDamaged: 'Check the task out again into an empty folder, or restore the file from a backup.',
});

/** The task record of `taskDir`, or undefined when the folder holds none. */
export async function readTaskRecord(taskDir: string): Promise<TaskRecord | undefined> {
  return taskFile.read(taskLayout(taskDir).taskFile);
}

export async function writeTaskRecord(taskDir: string, record: TaskRecord): Promise<void> {
  await taskFile.write(taskLayout(taskDir).taskFile, record);
}
