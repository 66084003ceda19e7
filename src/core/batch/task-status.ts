// A batch task's status file in its experiment (the record itself: records/task-status-file.ts).
import { readTaskStatusFile, writeTaskStatusFile, type TaskStatus } from '../records/task-status-file';
import { experimentLayout } from './experiment';

export async function readTaskStatus(experimentDir: string, taskId: string): Promise<TaskStatus | undefined> {
  return readTaskStatusFile(experimentLayout(experimentDir).statusFile(taskId));
}

export async function writeTaskStatus(experimentDir: string, status: Omit<TaskStatus, 'schema' | 'updated'>): Promise<void> {
  await writeTaskStatusFile(experimentLayout(experimentDir).statusFile(status.task), status);
}
