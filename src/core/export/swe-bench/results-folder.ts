// Writes the harness's files for a set of graded predictions as one folder, all or nothing: every
// file goes into a staging folder beside the output, which is renamed into place at the end. An
// interrupted export or grade leaves no half folder (only a staging folder named as such).
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from '../../util/errors';
import { instanceLogDir, runSummary, summaryFileName, type InstanceResult, type Prediction, type RunSummary } from './harness-files';
import { predictionsText } from './predictions-file';

export interface ResultsToWrite {
  out: string;
  runId: string;
  /** Every instance the run could have had, for the summary's totals. */
  dataset: readonly string[];
  predictions: readonly Prediction[];
  results: ReadonlyMap<string, InstanceResult>;
  /** Write predictions.jsonl too (an export does; a grade leaves the file it was given). */
  withPredictions: boolean;
}

/** Refuses an output folder that holds anything: results are never mixed with, or written over, others. */
export async function checkOutputFolder(out: string): Promise<void> {
  const entries = await fs.readdir(out).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    if (err.code === 'ENOTDIR') throw new UserError(`--out ${out} is a file: give a new or empty folder.`);
    throw err;
  });
  if (entries.length > 0) throw new UserError(`--out ${out} is not empty: give a new or empty folder (nothing was written).`);
}

/** Writes the folder and returns the summary and where it is. */
export async function writeResultsFolder(w: ResultsToWrite): Promise<{ summary: RunSummary; summaryFile: string }> {
  const out = path.resolve(w.out);
  await checkOutputFolder(out);
  await fs.mkdir(path.dirname(out), { recursive: true });
  const staging = path.join(path.dirname(out), `.${path.basename(out)}.partial-${randomBytes(4).toString('hex')}`);
  try {
    await fs.mkdir(staging);
    if (w.withPredictions) await fs.writeFile(path.join(staging, 'predictions.jsonl'), predictionsText(w.predictions));
    const known = new Set(w.dataset);
    for (const p of w.predictions) {
      const result = w.results.get(p.instance_id);
      // An unknown instance's id is not checked as a folder name: it gets no folder, only its summary row.
      if (!result || !known.has(p.instance_id) || result.kind === 'empty') continue;
      const dir = instanceLogDir(staging, w.runId, p.model_name_or_path, p.instance_id);
      await fs.mkdir(dir, { recursive: true });
      if (result.patch !== undefined) await fs.writeFile(path.join(dir, 'patch.diff'), result.patch);
      if (result.testOutput !== undefined) await fs.writeFile(path.join(dir, 'test_output.txt'), result.testOutput);
      if (result.kind === 'graded') await fs.writeFile(path.join(dir, 'report.json'), JSON.stringify({ [p.instance_id]: result.report }, null, 4));
      else await fs.writeFile(path.join(dir, 'run_instance.log'), `${result.reason}\n`);
    }
    const summary = runSummary(w.dataset, w.predictions, w.results);
    const name = summaryFileName(w.predictions[0]?.model_name_or_path ?? 'none', w.runId);
    await fs.writeFile(path.join(staging, name), JSON.stringify(summary, null, 4) + '\n');
    // An empty folder given as --out is replaced; anything else there was refused above (checked again: time passed).
    await checkOutputFolder(out);
    await fs.rmdir(out).catch(() => undefined);
    await fs.rename(staging, out);
    return { summary, summaryFile: path.join(out, name) };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
