// The demo batch dataset laid out as its Hub repository: metadata/default.csv and, per task,
// code.zip and an image.tar.gz (bytes of a given size, not a real image: the downloader only
// moves and verifies them), served by the loopback Hub of test/harness/hub-server.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DemoDataset } from '../../scripts/demo-dataset';
import { demoDatasetFixture } from './demo-dataset-fixture';

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

export interface TinyHubRepository {
  root: string;
  taskIds: string[];
  /** The repo_name column of each task. */
  repos: Record<string, string>;
}

/**
 * A dataset repository of three tasks whose archives are random bytes (code.zip of 1000+i
 * bytes, image.tar.gz of `imageBytes`): enough for what reads a split and moves files, in
 * milliseconds instead of the demo dataset's half minute. Not checkable out.
 */
export async function tinyHubRepository(root: string, imageBytes: number): Promise<TinyHubRepository> {
  const taskIds = ['acme__widgets-aaaaaaa-bbbbbbb', 'acme__widgets-ccccccc-ddddddd', 'zeta__tools-eeeeeee-fffffff'];
  const repos = Object.fromEntries(taskIds.map((id) => [id, id.startsWith('zeta') ? 'zeta/tools' : 'acme/widgets']));
  const sha = (c: string) => c.repeat(40);
  const rows = taskIds.map((id, i) => `${id},${sha('abcdef'[i])},${sha('123456'[i])},${repos[id]}`);
  await fs.mkdir(path.join(root, 'metadata'), { recursive: true });
  await fs.writeFile(path.join(root, 'metadata', 'default.csv'), `task_id,current_sha,target_sha,repo_name\n${rows.join('\n')}\n`);
  for (const [i, id] of taskIds.entries()) {
    await fs.mkdir(path.join(root, 'data', id), { recursive: true });
    await fs.writeFile(path.join(root, 'data', id, 'code.zip'), randomBytes(1000 + i));
    await fs.writeFile(path.join(root, 'data', id, 'image.tar.gz'), randomBytes(imageBytes));
  }
  return { root, taskIds, repos };
}
