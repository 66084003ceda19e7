// `.sweci/environment.json`: where the task's tests ran when it was checked out (the runtime,
// the image and its id, the interpreter), so later runs of the same task use the same place
// and every record can say where its numbers came from.
import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../util/fs-atomic';
import { taskLayout } from './layout';

export interface EnvironmentRecord {
  schema: 1;
  runtime: 'docker' | 'local';
  /** The image the tests run in (a tag, or an id). */
  image?: string;
  /** `sha256:…` of that image, as the engine reported it. */
  imageId?: string;
  /** The interpreter that runs pytest (in the image, or on the host). */
  python: string;
  /**
   * Local runs: 'sandbox' (bubblewrap) or 'none' (not isolated: agents and the code under test
   * could read the oracle and change the records). Missing in records older than the sandbox.
   */
  isolation?: 'sandbox' | 'none';
  recordedAt: string;
}

export async function readEnvironmentRecord(taskDir: string): Promise<EnvironmentRecord | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(taskLayout(taskDir).environmentFile, 'utf8')) as EnvironmentRecord;
    return parsed && (parsed.runtime === 'docker' || parsed.runtime === 'local') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function writeEnvironmentRecord(taskDir: string, record: EnvironmentRecord): Promise<void> {
  await writeFileAtomic(taskLayout(taskDir).environmentFile, `${JSON.stringify(record, null, 2)}\n`);
}
