// `.sweci/environment.json`: where the task's tests ran when it was checked out (the runtime,
// the image and its id, the interpreter), so later runs of the same task use the same place
// and every record can say where its numbers came from.
import { z } from 'zod';
import { jsonRecordFile } from '../records/record-file';
import type { TaskFolder } from './task-folder';

export const environmentRecordSchema = z.object({
  schema: z.literal(1),
  runtime: z.enum(['docker', 'podman', 'local']),
  /** The image the tests run in (a tag, or an id). */
  image: z.string().optional(),
  /** `sha256:…` of that image, as the engine reported it. */
  imageId: z.string().optional(),
  /**
   * The task's image.tar.gz the image came from, as it was then: while the file is unchanged and
   * the engine still has `imageId` under `image`, later runs skip reading it again (seconds).
   */
  archive: z.object({ path: z.string(), size: z.number(), mtimeMs: z.number() }).optional(),
  /** The interpreter that runs pytest (in the image, or on the host). */
  python: z.string(),
  /**
   * Local runs: 'sandbox' (bubblewrap) or 'none' (not isolated: agents and the code under test
   * could read the oracle and change the records). Missing in records older than the sandbox.
   */
  isolation: z.enum(['sandbox', 'none']).optional(),
  recordedAt: z.string(),
});
export type EnvironmentRecord = z.infer<typeof environmentRecordSchema>;

// Damage reads as absent: the next pytest run finds the environment again and rewrites it.
const environmentFile = jsonRecordFile({ schema: environmentRecordSchema, whenDamaged: 'It is rewritten by the next test run.', onDamage: 'missing' });

export async function readEnvironmentRecord(task: TaskFolder): Promise<EnvironmentRecord | undefined> {
  return environmentFile.read(task.environmentFile);
}

export async function writeEnvironmentRecord(task: TaskFolder, record: EnvironmentRecord): Promise<void> {
  await environmentFile.write(task.environmentFile, record);
}
