// `.sweci/task.json`: its one reader and writer (the schema is in task-record-schema.ts).
import { jsonRecordFile } from '../records/record-file';
import { taskRecordSchema, type TaskRecord } from './task-record-schema';
import type { TaskFolder } from './task-folder';

const taskFile = jsonRecordFile({
  schema: taskRecordSchema,
  whenDamaged: 'Check the task out again into an empty folder, or restore the file from a backup.',
});

/** The task record of `task`, or undefined when the folder holds none. */
export async function readTaskRecord(task: TaskFolder): Promise<TaskRecord | undefined> {
  return taskFile.read(task.taskFile);
}

export function readTaskRecordSync(task: TaskFolder): TaskRecord | undefined {
  return taskFile.readSync(task.taskFile);
}

export async function writeTaskRecord(task: TaskFolder, record: TaskRecord): Promise<void> {
  await taskFile.write(task.taskFile, record);
}
