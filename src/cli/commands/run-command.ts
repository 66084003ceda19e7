// sweci run: the benchmark over a dataset, headless. Each task is checked out into the
// experiment folder and its loop runs with the same core as the editor; running the same
// command again continues what is unfinished and skips what is done.
import * as path from 'node:path';
import { readAgentSettings, agentHint } from '../../core/agents/agent-settings';
import { apiKeysFrom } from '../../core/agents/api-key-names';
import type { BatchEvent, BatchSettings } from '../../core/batch/batch-types';
import { openExperiment, runBatch } from '../../core/batch/run-batch';
import { selectTasks } from '../../core/batch/select-tasks';
import type { TaskStatus } from '../../core/batch/task-status';
import { readExperiment } from '../../core/batch/experiment';
import { readIntegritySettings } from '../../core/loop/integrity-settings';
import { readLoopSettings } from '../../core/loop/loop-settings';
import { readPytestSettings } from '../../core/pytest/pytest-settings';
import { readRuntimeSettings } from '../../core/runtime/runtime-settings';
import { listSplits, readDatasetTasks } from '../../core/task/dataset';
import { UserError } from '../../core/util/errors';
import { readSettingsFile } from '../../core/util/settings-file';
import { cliSettings } from '../cli-settings';
import { openBatchDisplay } from '../batch-display';

export interface RunValues extends Record<string, unknown> {
  dataset?: string;
  split?: string;
  tasks?: string;
  tasksFile?: string;
  taskIndex?: string;
  experiment?: string;
  run?: string;
  workers?: string;
  config?: string;
  humanHistory?: boolean;
  json?: boolean;
  apiKeyEnv?: string[];
}

export async function runCommand(values: RunValues, signal: AbortSignal): Promise<number> {
  if (!values.dataset) throw new UserError('run needs --dataset <dir>: a SWE-CI dataset folder (metadata/<split>.csv and data/<task_id>/code.zip).');
  if (!values.experiment) throw new UserError('run needs --experiment <dir>: the folder the tasks and their runs are written to (created if missing).');
  const experimentDir = path.resolve(values.experiment);
  const file = values.config ? { path: values.config, settings: await readSettingsFile(values.config) } : undefined;
  const settings = cliSettings(values, file, { runtime: 'auto' });
  const agents = {
    architect: readAgentSettings('architect', settings.read, settings.label),
    programmer: readAgentSettings('programmer', settings.read, settings.label),
  };
  for (const role of ['architect', 'programmer'] as const) {
    if (agents[role].kind === 'human')
      throw new UserError(`A headless run has nobody to play the ${role}: choose an agent with --${role} <preset|custom> (or in the --config file).`);
  }
  const pytest = readPytestSettings(settings.read, settings.label);
  const runtime = readRuntimeSettings(settings.read, settings.label);
  const loop = readLoopSettings(settings.read, settings.label);
  const integrity = readIntegritySettings(settings.read, settings.label);
  const unread = file?.settings.unread() ?? [];
  if (unread.length > 0)
    throw new UserError(
      `${file!.path} has settings SWE-CI does not know: ${unread.map((k) => `sweci.${k}`).join(', ')}. Check their spelling against the README's settings table.`,
    );
  const workers = Number(values.workers ?? '1');
  if (!Number.isInteger(workers) || workers < 1) throw new UserError(`--workers must be a whole number of 1 or more, not "${values.workers}".`);

  const datasetDir = path.resolve(values.dataset);
  const split = values.split ?? (await listSplits(datasetDir))[0];
  const all = await readDatasetTasks(datasetDir, split);
  const index = values.taskIndex === undefined ? undefined : Number(values.taskIndex);
  if (index !== undefined && !Number.isInteger(index)) throw new UserError(`--task-index must be a whole number, not "${values.taskIndex}".`);
  const specs = await selectTasks(
    all,
    {
      ids: values.tasks
        ? values.tasks
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean)
        : undefined,
      idsFile: values.tasksFile,
      index,
    },
    `${datasetDir} (split ${split})`,
  );
  // Default: the experiment's run, else the agents' label as a run name ("claude-code (opus)" → "claude-code-opus").
  const run =
    values.run ??
    (await readExperiment(experimentDir))?.run ??
    agentHint(agents.architect, agents.programmer)
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const display = openBatchDisplay({ json: !!values.json, tasks: specs.map((s) => s.id), workers });
  const batch: BatchSettings = {
    experimentDir,
    run,
    agents,
    secretEnv: apiKeysFrom(process.env, values.apiKeyEnv ?? []),
    runtime,
    pytest,
    loop,
    maxFileMb: integrity.maxFileMb,
    humanHistory: !!values.humanHistory,
    signal,
    onEvent: (e: BatchEvent) => display.event(e),
  };
  await openExperiment(batch, { dataset: datasetDir, split });
  display.start(`${specs.length} task(s) · run ${run} · ${workers} worker(s) · ${experimentDir}`);
  let statuses: TaskStatus[];
  try {
    statuses = await runBatch(specs, batch, workers);
  } finally {
    display.stop();
  }
  display.final(statuses);
  if (signal.aborted) return 130;
  return statuses.every((s) => s.state === 'solved' || s.state === 'max-iterations' || s.state === 'init-failed') ? 0 : 1;
}
