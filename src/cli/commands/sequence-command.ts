// sweci run --sequence: a SWE-Bench-CL sequence file's tasks, in order, in one experiment folder,
// with the results matrix and the continual-learning metrics at the end.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { BatchEvent } from '../../core/batch/batch-types';
import { openExperiment } from '../../core/batch/run-batch';
import { runSequence } from '../../core/continual/run-sequence';
import { summarizeSequence } from '../../core/continual/sequence-summary';
import { parseClSequences } from '../../core/task/swe-bench-instance';
import { taskFromSweBenchInstance } from '../../core/task/swe-bench-task';
import { UserError } from '../../core/util/errors';
import { openBatchDisplay } from '../batch-display';
import { formatClMetrics } from './cl-format';
import { batchSettingsOf, defaultRunName, readRunSettings, type RunValues } from './run-settings';

export async function sequenceCommand(values: RunValues, signal: AbortSignal): Promise<number> {
  const file = path.resolve(values.sequence!);
  if (values.dataset) throw new UserError('run takes --sequence or --dataset, not both.');
  if (!values.experiment) throw new UserError('run --sequence needs --experiment <dir>: the folder the tasks, their runs and the results matrix go to.');
  if (!values.repo && !values.repos) throw new UserError("run --sequence needs --repo <clone> or --repos <folder of clones>: the sequence's repository.");
  if (values.workers !== undefined && values.workers !== '1') throw new UserError('A sequence runs its tasks one after another: --workers does not apply.');
  const experimentDir = path.resolve(values.experiment);
  const read = await readRunSettings(values);

  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code}). Give a SWE-Bench-CL sequence file.`);
  }
  const sequences = parseClSequences(text, file);
  const sequence = values.sequenceId ? sequences.find((q) => q.id === values.sequenceId) : sequences.length === 1 ? sequences[0] : undefined;
  if (!sequence) {
    const names = sequences.map((q) => q.id).join(', ');
    throw new UserError(
      values.sequenceId
        ? `${file} has no sequence "${values.sequenceId}" (it has ${names}).`
        : `${file} holds ${sequences.length} sequences; choose one with --sequence-id (${names}).`,
    );
  }
  const specs = [];
  for (const instance of sequence.tasks) specs.push(await taskFromSweBenchInstance(instance, file, { repoPath: values.repo, reposDir: values.repos }, signal));
  const memory = !!values.memory;
  const run = await defaultRunName(values, experimentDir, read.agents);
  const display = openBatchDisplay({ json: !!values.json, tasks: specs.map((t) => t.id), workers: 1 });
  const settings = {
    ...batchSettingsOf(values, read, { experimentDir, run, humanHistory: false, signal, onEvent: (e: BatchEvent) => display.event(e) }),
    sequenceId: sequence.id,
    memory,
  };
  await openExperiment(settings, { dataset: file, split: `sequence ${sequence.id}`, sequence: { id: sequence.id, tasks: specs.map((t) => t.id), memory } });
  display.start(`sequence ${sequence.id}: ${specs.length} task(s) in order · memory ${memory ? 'on' : 'off'} · run ${run} · ${experimentDir}`);
  let result;
  try {
    result = await runSequence(specs, settings);
  } finally {
    display.stop();
  }
  display.final(result.statuses.filter((st) => st !== undefined));
  if (signal.aborted) return 130;
  const summary = await summarizeSequence(experimentDir, { zeroShotDir: values.zeroShot });
  if (summary) console.log(formatClMetrics(summary));
  return result.results.matrix.every((r) => r !== null) ? 0 : 1;
}
