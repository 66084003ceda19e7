// A sequence experiment's results and continual-learning metrics, the one way the CLI and the
// chart view read them. Forward transfer needs the zero-shot success of each task (the paper's
// baseline: the same sequence run without memory); that is the diagonal of a memory-off
// experiment of the same sequence: one given by the user, else the one beside this experiment.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from '../util/errors';
import { clMetrics, DEFAULT_CL_WEIGHTS, type ClMetrics, type ClWeights } from './cl-metrics';
import { clResultsFile, readClResults, type ClResults } from './cl-results';

export interface SequenceSummary {
  results: ClResults;
  metrics: ClMetrics;
  /** The memory-off experiment whose diagonal gave FWT's zero-shot results, when one was found. */
  zeroShotDir?: string;
  /** The weights CL-Score was computed with. */
  weights: ClWeights;
}

export interface SequenceSummaryOptions {
  /** A memory-off experiment of the same sequence; without it one beside this experiment is looked for. */
  zeroShotDir?: string;
  weights?: ClWeights;
}

/** undefined when the folder is not a sequence experiment (it has no cl-results.json). */
export async function summarizeSequence(experimentDir: string, opts: SequenceSummaryOptions = {}): Promise<SequenceSummary | undefined> {
  const results = await readClResults(experimentDir);
  if (!results) return undefined;
  const zeroShotDir = results.memory ? await zeroShotExperiment(experimentDir, results, opts.zeroShotDir) : undefined;
  const baseline = zeroShotDir ? await readClResults(zeroShotDir) : undefined;
  const weights = opts.weights ?? DEFAULT_CL_WEIGHTS;
  const metrics = clMetrics(
    {
      matrix: results.matrix.map((r) => r ?? []),
      runs: results.runs,
      zeroShot: baseline?.matrix.map((row, j) => row?.[j] ?? null),
    },
    weights,
  );
  if (!results.memory) metrics.missing.fwt = 'this run has no memory: it is the zero-shot baseline a run with memory is compared to';
  else if (!baseline) metrics.missing.fwt = 'needs the zero-shot results: run the sequence without --memory into a folder beside this one';
  return { results, metrics, weights, ...(zeroShotDir ? { zeroShotDir } : {}) };
}

function sameSequence(a: ClResults, b: ClResults): boolean {
  return a.sequence === b.sequence && JSON.stringify(a.tasks) === JSON.stringify(b.tasks);
}

async function zeroShotExperiment(experimentDir: string, results: ClResults, given: string | undefined): Promise<string | undefined> {
  if (given) {
    const dir = path.resolve(given);
    const other = await readClResults(dir);
    if (!other)
      throw new UserError(
        `${dir} has no ${path.basename(clResultsFile(dir))}: give the experiment folder of a run of sequence ${results.sequence} without --memory.`,
      );
    if (!sameSequence(other, results))
      throw new UserError(
        `${dir} holds sequence ${other.sequence} (${other.tasks.length} tasks), not ${results.sequence}: its results cannot be the zero-shot baseline.`,
      );
    if (other.memory) throw new UserError(`${dir} was run with memory: the zero-shot baseline is a run of the sequence without --memory.`);
    return dir;
  }
  // Beside this experiment: the memory-off run of the same sequence with the most tasks measured
  // (a run whose tasks could not run measures nothing), by folder name on a tie.
  const here = path.resolve(experimentDir);
  const parent = path.dirname(here);
  const names = await fs.readdir(parent).catch(() => [] as string[]);
  let best: { dir: string; measured: number } | undefined;
  for (const name of names.sort()) {
    const dir = path.join(parent, name);
    if (dir === here) continue;
    const other = await readClResults(dir).catch(() => undefined);
    if (!other || other.memory || !sameSequence(other, results)) continue;
    const measured = other.matrix.filter((row, j) => typeof row?.[j] === 'number').length;
    if (measured > 0 && (!best || measured > best.measured)) best = { dir, measured };
  }
  return best?.dir;
}
