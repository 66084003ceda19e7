// sweci run --sequence: a SWE-Bench-CL sequence file's tasks, in order, in one experiment folder,
// with the results matrix and the continual-learning metrics at the end.
import { assertEndpointsAnswer } from '../../core/agents/endpoint/endpoint-check';
import { plural } from '../../core/util/plural';
import * as path from 'node:path';
import type { BatchEvent } from '../../core/batch/batch-types';
import { chooseSequence, readSequenceFile, sequenceSpecs, startSequence } from '../../core/sequence/sequence-run';
import { summarizeSequence } from '../../core/sequence/sequence-summary';
import { UserError } from '../../core/util/errors';
import { openBatchDisplay } from '../batch-display';
import { formatClMetrics } from './sequence-format';
import { batchSettingsOf, defaultRunName, readHeadlessSettings, refuseUnconfined, type RunValues } from './run-settings';

export async function sequenceCommand(values: RunValues, signal: AbortSignal): Promise<number> {
  const file = path.resolve(values.sequence!);
  if (values.dataset) throw new UserError('run takes --sequence or --dataset, not both.');
  if (!values.experiment) throw new UserError('run --sequence needs --experiment <dir>: the folder the tasks, their runs and the results matrix go to.');
  if (!values.repo && !values.repos) throw new UserError("run --sequence needs --repo <clone> or --repos <folder of clones>: the sequence's repository.");
  if (values.workers !== undefined && values.workers !== '1') throw new UserError('A sequence runs its tasks one after another: --workers does not apply.');
  const experimentDir = path.resolve(values.experiment);
  const read = await readHeadlessSettings(values);

  const sequence = chooseSequence(await readSequenceFile(file), file, values.sequenceId);
  const specs = await sequenceSpecs(sequence, file, { repoPath: values.repo, reposDir: values.repos }, signal);
  const memory = read.sequence.memory;
  const run = await defaultRunName(values, experimentDir, read.agents);
  const display = openBatchDisplay({ json: !!values.json, tasks: specs.map((t) => t.id), workers: 1 });
  const settings = {
    ...batchSettingsOf(values, read, { experimentDir, run, humanHistory: false, signal, onEvent: (e: BatchEvent) => display.event(e) }),
    sequenceId: sequence.id,
    memory,
    cells: read.sequence.cells,
  };
  // Before any task is checked out: an endpoint that does not answer stops the run here.
  await refuseUnconfined(values, read);
  await assertEndpointsAnswer(read.agents, settings.secretEnv, signal);
  display.start(
    `sequence ${sequence.id}: ${plural(specs.length, 'task')} in order · memory ${memory ? 'on' : 'off'} · matrix ${read.sequence.cells} · run ${run} · ${experimentDir}`,
  );
  let result;
  try {
    result = await startSequence(file, sequence, specs, settings);
  } finally {
    display.stop();
  }
  display.final(result.statuses.filter((st) => st !== undefined));
  if (signal.aborted) return 130;
  const summary = await summarizeSequence(experimentDir, { zeroShotDir: values.zeroShot, weights: read.sequence.weights });
  if (summary) console.log(formatClMetrics(summary));
  return result.results.matrix.every((r) => r !== null) ? 0 : 1;
}
