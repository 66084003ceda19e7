// The demo dataset as a test fixture. Building it writes the demo history and runs pytest on each
// task's target and base (~8 CPU-s, ~19 with the batch's four tasks), and a dozen unit test files
// need one. Under the unit runner (which names a folder in SWECI_TEST_FIXTURE_CACHE and removes it
// when the tier ends) each kind is built once per tier and copied to each caller; run alone, a file
// builds its own. A caller gets the same files either way: a folder of the dataset, its own.
// demo-dataset.test.ts tests the builder itself and calls it directly.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { buildDemoDataset, type BuildDemoOptions, type DemoDataset } from '../../scripts/demo-dataset';

/** What may be cached: no image archive (it is linked in, and large), no progress callback. */
type FixtureOptions = Pick<BuildDemoOptions, 'batch' | 'python'>;

const CACHE_ENV = 'SWECI_TEST_FIXTURE_CACHE';

export async function demoDatasetFixture(outDir: string, options: FixtureOptions = {}): Promise<DemoDataset> {
  const cache = process.env[CACHE_ENV];
  if (!cache) return buildDemoDataset(outDir, options);
  const python = options.python ?? process.env.SWECI_PYTHON ?? 'python3';
  const key = `demo-dataset-${options.batch ? 'batch' : 'one'}-${python.replace(/\W+/g, '_')}`;
  const built = path.join(cache, key);
  const resultFile = path.join(built, 'dataset.json');
  let result = await readResult(resultFile);
  if (!result) {
    // Built aside and renamed into place whole; a file beside us that builds it too at the same
    // time loses the rename and throws its copy away.
    const work = `${built}.build-${randomBytes(6).toString('hex')}`;
    try {
      const made = await buildDemoDataset(path.join(work, 'dataset'), { ...options, python });
      await fs.writeFile(path.join(work, 'dataset.json'), JSON.stringify(made));
      await fs.rename(work, built).catch(() => undefined);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
    result = await readResult(resultFile);
    if (!result) throw new Error(`the demo dataset fixture was not built in ${built}`);
  }
  const datasetDir = path.resolve(outDir);
  await fs.cp(path.join(built, 'dataset'), datasetDir, { recursive: true });
  return { ...result, datasetDir };
}

async function readResult(file: string): Promise<DemoDataset | undefined> {
  return fs.readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as DemoDataset,
    () => undefined,
  );
}
