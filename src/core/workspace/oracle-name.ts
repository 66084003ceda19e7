// The folder name of a task's oracle inside an oracle store. The CLI and a benchmark run keep
// one oracle per task (folders of the same task share it); the extension keeps one per task
// folder (`perFolder`), named so a person can still tell which task it is.
import { createHash } from 'node:crypto';

export function oracleFolderName(taskId: string, perFolder?: string): string {
  const safe = taskId.replace(/[^A-Za-z0-9._-]/g, '_');
  if (perFolder === undefined) return safe;
  return `${safe}-${createHash('sha256').update(perFolder).digest('hex').slice(0, 10)}`;
}
