// The demo batch dataset laid out as its Hub repository: metadata/default.csv and, per task,
// code.zip and an image.tar.gz (bytes of a given size, not a real image: the downloader only
// moves and verifies them), served by the loopback Hub of test/harness/hub-server.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';

export interface HubDataset {
  /** The repository's files, as the server serves them. */
  root: string;
  demo: DemoDataset;
  taskIds: string[];
}

/** Builds the repository in `root`; each task's image.tar.gz has `imageBytes` random bytes. */
export async function hubDatasetFixture(root: string, imageBytes: number): Promise<HubDataset> {
  const demo = await demoDatasetFixture(root, { batch: true });
  const taskIds = demo.tasks.map((t) => t.taskId);
  for (const id of taskIds) await fs.writeFile(path.join(root, 'data', id, 'image.tar.gz'), randomBytes(imageBytes));
  return { root, demo, taskIds };
}
