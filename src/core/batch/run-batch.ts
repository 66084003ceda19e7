// A benchmark run over many tasks: `workers` tasks at once, each with its own lock, each
// resumable. Stopping (the signal) lets running tasks stop cleanly and starts no more.
import { agentLabel } from '../agents/agent-settings';
import { agentsMask } from '../loop/role-setup';
import { assertRunName } from '../loop/run-name';
import type { TaskSpec } from '../task/task-spec';
import { UserError } from '../util/errors';
import type { BatchSettings } from './batch-types';
import { readExperiment, writeExperiment, type ExperimentRecord } from './experiment';
import { batchEmitter, runBatchTask } from './run-batch-task';
import { checkCostBounds, experimentBudget } from './cost-budgets';
import type { TaskStatus } from '../records/task-status-file';
import { plural } from '../util/plural';
import * as path from 'node:path';
import { parentOf, startTracing } from '../telemetry/tracing';

export interface ExperimentSource {
  dataset: string;
  split: string;
  sequence?: ExperimentRecord['sequence'];
}

/**
 * The experiment's record, written on its first run. A later run must record into the same
 * run name, or its tasks would hold two half runs each.
 */
export async function openExperiment(
  s: Pick<BatchSettings, 'experimentDir' | 'run' | 'settings'> & Partial<Pick<BatchSettings, 'secretEnv'>>,
  source: ExperimentSource,
): Promise<ExperimentRecord> {
  assertRunName(s.run);
  const existing = await readExperiment(s.experimentDir);
  if (existing) {
    if (JSON.stringify(existing.sequence) !== JSON.stringify(source.sequence)) {
      throw new UserError(
        `${s.experimentDir} records ${existing.sequence ? `the sequence ${existing.sequence.id} (memory ${existing.sequence.memory ? 'on' : 'off'})` : 'a dataset run'}, not this one. Give another --experiment folder.`,
      );
    }
    if (existing.run !== s.run) {
      throw new UserError(
        `${s.experimentDir} records run "${existing.run}", not "${s.run}". Continue it with --run ${existing.run} (or no --run), or give another --experiment folder.`,
      );
    }
    // New tasks would run with other agents or another number of iterations than the ones
    // already recorded, under the same run name: one run, two settings.
    const wanted = { agents: agentsOf(s.settings, s.secretEnv), maxIterations: s.settings.loop.maxIterations };
    if (JSON.stringify({ agents: existing.agents, maxIterations: existing.maxIterations }) !== JSON.stringify(wanted)) {
      throw new UserError(
        `${s.experimentDir} records run "${existing.run}" with ${settingsText(existing)}, not ${settingsText(wanted)}. Continue it with the same agents and --max-iterations, or give another --experiment folder.`,
      );
    }
    return existing;
  }
  const record: ExperimentRecord = {
    schema: 1,
    created: new Date().toISOString(),
    dataset: source.dataset,
    split: source.split,
    run: s.run,
    agents: agentsOf(s.settings, s.secretEnv),
    maxIterations: s.settings.loop.maxIterations,
    ...(source.sequence ? { sequence: source.sequence } : {}),
  };
  // Pods of a Kubernetes Job may all get here at once: each writes the same record atomically
  // (only `created` differs), so whichever lands last is as good as the first.
  await writeExperiment(s.experimentDir, record);
  return record;
}

/**
 * Who plays each role, as run.json says it: a key in a model name or a command line (its value
 * among the keys or a role's env) is masked as there (role-setup.ts's agentsMask).
 */
function agentsOf(settings: BatchSettings['settings'], secretEnv: Record<string, string> = {}): ExperimentRecord['agents'] {
  const mask = agentsMask(settings.agents, secretEnv);
  return { architect: mask.mask(agentLabel(settings.agents.architect)), programmer: mask.mask(agentLabel(settings.agents.programmer)) };
}

function settingsText(r: Pick<ExperimentRecord, 'agents' | 'maxIterations'>): string {
  return `architect ${r.agents.architect}, programmer ${r.agents.programmer} and ${plural(r.maxIterations, 'iteration')}`;
}

/** Runs every task (at most `workers` at once) and returns their states in the order given. */
export async function runBatch(specs: readonly TaskSpec[], settings: BatchSettings, workers: number): Promise<TaskStatus[]> {
  if (!Number.isInteger(workers) || workers < 1) throw new UserError(`--workers must be a whole number of 1 or more, not ${workers}.`);
  if (settings.cost) checkCostBounds(settings.cost, settings.settings.model.prices);
  const budget = await experimentBudget(settings.experimentDir, settings.run, settings.cost?.maxCost);
  // One experiment span (telemetry on) over every task's run of this call.
  const tracing = startTracing(settings.settings.telemetry);
  const span = tracing?.tracer.startSpan(`sweci.experiment ${path.basename(settings.experimentDir)}`, {
    attributes: { 'sweci.experiment': path.basename(settings.experimentDir), 'sweci.run': settings.run, 'sweci.tasks': specs.length },
  });
  const s: BatchSettings = { ...settings, ...(budget ? { experimentBudget: budget } : {}), ...(span ? { traceParent: parentOf(span) } : {}) };
  try {
    return await runTasks(specs, s, workers);
  } finally {
    span?.end();
  }
}

async function runTasks(specs: readonly TaskSpec[], s: BatchSettings, workers: number): Promise<TaskStatus[]> {
  const results = new Array<TaskStatus>(specs.length);
  const emit = batchEmitter(s);
  for (const spec of specs) emit({ type: 'task-status', status: { schema: 1, task: spec.id, state: 'queued', updated: new Date().toISOString() } });
  let next = 0;
  const worker = async () => {
    while (!s.signal.aborted && next < specs.length) {
      const i = next++;
      results[i] = await runBatchTask(specs[i], s);
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, specs.length) }, worker));
  // Tasks never started because of a stop.
  for (let i = 0; i < specs.length; i++) {
    results[i] ??= { schema: 1, task: specs[i].id, state: 'cancelled', updated: new Date().toISOString(), reason: 'not started' };
  }
  return results;
}
