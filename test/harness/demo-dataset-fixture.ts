// The demo dataset as a test fixture. Building it writes the demo history and runs pytest on each
// task's target and base (~8 CPU-s, ~19 with the batch's four tasks), and a dozen unit test files
// need one. Under the unit runner (which names a folder in SWECI_TEST_FIXTURE_CACHE and removes it
// when the tier ends) each kind is built once per tier, by the first file that asks while the
// others wait for it (a lock file), and copied to each caller; run alone, a file builds its own. A caller gets the same files either way: a folder of the dataset, its own.
// demo-dataset.test.ts tests the builder itself and calls it directly. The Docker files ask for the
// task image archive too: it is linked into their copy (the cache never holds it: 70 MB).
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { buildDemoDataset, type BuildDemoOptions, type DemoDataset } from '../../scripts/demo-dataset';

/** What may be cached (no progress callback); an image archive is linked into the copy, as the builder links it. */
type FixtureOptions = Pick<BuildDemoOptions, 'batch' | 'python' | 'imageArchive'>;

const CACHE_ENV = 'SWECI_TEST_FIXTURE_CACHE';

export async function demoDatasetFixture(outDir: string, options: FixtureOptions = {}): Promise<DemoDataset> {
  const cache = process.env[CACHE_ENV];
  if (!cache) return buildDemoDataset(outDir, options);
  const python = options.python ?? process.env.SWECI_PYTHON ?? 'python3';
  const key = `demo-dataset-${options.batch ? 'batch' : 'one'}-${python.replace(/\W+/g, '_')}`;
  const built = path.join(cache, key);
  const resultFile = path.join(built, 'dataset.json');
  let result = await readResult(resultFile);
  while (!result) {
    // One builder at a time: the files that start together wait for the first one's build
    // instead of each building its own copy on the same cores. A builder that died without
    // finishing leaves its lock behind; the next caller takes it over.
    const lock = `${built}.lock`;
    if (await takeLock(lock)) {
      try {
        result = await readResult(resultFile);
        if (!result) {
          const work = `${built}.build-${randomBytes(6).toString('hex')}`;
          try {
            const made = await buildDemoDataset(path.join(work, 'dataset'), { batch: options.batch, python });
            await fs.writeFile(path.join(work, 'dataset.json'), JSON.stringify(made));
            await fs.rename(work, built);
          } finally {
            await fs.rm(work, { recursive: true, force: true });
          }
          result = await readResult(resultFile);
          if (!result) throw new Error(`the demo dataset fixture was not built in ${built}`);
        }
      } finally {
        await fs.rm(lock, { force: true });
      }
    } else {
      await new Promise((r) => setTimeout(r, 200));
      result = await readResult(resultFile);
    }
  }
  const datasetDir = path.resolve(outDir);
  await fs.cp(path.join(built, 'dataset'), datasetDir, { recursive: true });
  if (options.imageArchive) {
    // As buildDemoDataset ships it: every task's data/<task>/image.tar.gz, the one archive linked.
    const source = path.resolve(options.imageArchive);
    for (const task of result.tasks) {
      const dest = path.join(datasetDir, 'data', task.taskId, 'image.tar.gz');
      await fs.link(source, dest).catch(() => fs.symlink(source, dest));
    }
  }
  return { ...result, datasetDir };
}

/** Creates `lock` holding this process's pid; false while a live process holds it. */
async function takeLock(lock: string): Promise<boolean> {
  try {
    await fs.writeFile(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = Number(await fs.readFile(lock, 'utf8').catch(() => ''));
  if (holder > 0 && isRunning(holder)) return false;
  // Empty (being written) or left by a process that is gone: removed here only in the latter case.
  if (holder > 0) await fs.rm(lock, { force: true });
  return false;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readResult(file: string): Promise<DemoDataset | undefined> {
  return fs.readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as DemoDataset,
    () => undefined,
  );
}
