// Starting a sequence run, the same way from the CLI and the editor: the sequence file read and
// its sequence chosen, each task resolved on the local clone, the experiment folder opened (or
// continued), then the tasks run in order.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AgentSettings } from '../agents/agent-driver';
import { agentHint } from '../agents/agent-settings';
import { SecretMask } from '../util/secret-mask';
import { openExperiment } from '../batch/run-batch';
import { parseSweBenchClSequences, type SweBenchClSequence } from '../task/swe-bench-instance';
import { taskFromSweBenchInstance, type InstanceRepoChoice } from '../task/swe-bench-task';
import type { TaskSpec } from '../task/task-spec';
import { UserError } from '../util/errors';
import { runSequence, type SequenceResult, type SequenceSettings } from './run-sequence';

/** The sequences of a SWE-Bench-CL file. */
export async function readSequenceFile(file: string): Promise<SweBenchClSequence[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code}). Give a SWE-Bench-CL sequence file.`);
  }
  return parseSweBenchClSequences(text, file);
}

/** The sequence `id` of the file, or its only one. */
export function chooseSequence(sequences: readonly SweBenchClSequence[], file: string, id: string | undefined): SweBenchClSequence {
  const chosen = id ? sequences.find((q) => q.id === id) : sequences.length === 1 ? sequences[0] : undefined;
  if (chosen) return chosen;
  const names = sequences.map((q) => q.id).join(', ');
  throw new UserError(
    id ? `${file} has no sequence "${id}" (it has ${names}).` : `${file} holds ${sequences.length} sequences; choose one with --sequence-id (${names}).`,
  );
}

/** Each task of the sequence on its clone (checked before anything runs). */
export async function sequenceSpecs(sequence: SweBenchClSequence, file: string, clones: InstanceRepoChoice, signal?: AbortSignal): Promise<TaskSpec[]> {
  const specs: TaskSpec[] = [];
  for (const instance of sequence.tasks) specs.push(await taskFromSweBenchInstance(instance, file, clones, signal));
  return specs;
}

/** A run name from who plays the roles ("claude-code (opus)" → "claude-code-opus"). */
export function runNameFor(architect: AgentSettings, programmer: AgentSettings, keys: Iterable<string> = []): string {
  // A key in a model name (its value among the keys) must not name the run's folder.
  const hint = new SecretMask(keys).mask(agentHint(architect, programmer));
  return hint.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'run';
}

/** Opens (or continues) the experiment folder as this sequence's, then runs its tasks in order. */
export async function startSequence(
  file: string,
  sequence: SweBenchClSequence,
  specs: readonly TaskSpec[],
  settings: SequenceSettings,
): Promise<SequenceResult> {
  await openExperiment(settings, {
    dataset: path.resolve(file),
    split: `sequence ${sequence.id}`,
    sequence: { id: sequence.id, tasks: specs.map((t) => t.id), memory: settings.memory },
  });
  return runSequence(specs, settings);
}
