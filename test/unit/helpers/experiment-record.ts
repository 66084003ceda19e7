// What `sweci run --experiment` writes first beside its tasks (sweci-experiment.json), for tests
// that run loops straight into a folder: the CLI's verbs refuse a folder without it.
import { promises as fs } from 'node:fs';
import { experimentLayout, type ExperimentRecord } from '../../../src/core/batch/experiment';

/** Writes the experiment record of a scripted run `run` at N = `maxIterations`. */
export async function writeExperimentRecord(dir: string, dataset: string, maxIterations: number, run = 'run'): Promise<void> {
  const record: ExperimentRecord = {
    schema: 1,
    created: new Date().toISOString(),
    dataset,
    split: 'test',
    run,
    agents: { architect: 'scripted', programmer: 'scripted' },
    maxIterations,
  };
  await fs.writeFile(experimentLayout(dir).file, JSON.stringify(record));
}
