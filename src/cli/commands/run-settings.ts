// The settings of a headless run (sweci run over a dataset or a sequence): flags first, then the
// --config file, read by the one parser the extension's settings go through too
// (core/loop/loop-request.ts, which also turns them into what each task's loop is given).
import { runNameFor } from '../../core/sequence/sequence-run';
import { readSequenceSettings, type SequenceRunSettings } from '../../core/sequence/sequence-settings';
import { apiKeysFrom, endpointKeyFrom } from '../../core/agents/api-key-names';
import { ENDPOINT_KEY_ENV } from '../../core/agents/endpoint/endpoint';
import type { BatchSettings } from '../../core/batch/batch-types';
import { checkCostBounds, type CostBounds } from '../../core/batch/cost-budgets';
import type { ModelPrices } from '../../core/gateway/prices';
import * as path from 'node:path';
import { readExperiment } from '../../core/batch/experiment';
import type { RuntimeSettings } from '../../core/runtime/runtime-settings';
import { readRunSettings, type RunSettings } from '../../core/loop/loop-request';
import { unconfinedCause } from '../../core/runtime/unconfined-check';
import type { AgentSettings } from '../../core/agents/agent-driver';
import { UserError } from '../../core/util/errors';
import { readSettingsFile } from '../../core/util/settings-file';
import { cliSettings } from '../cli-settings';

/** A run's settings and, for a sequence run, sweci.sequence.*. */
export type HeadlessSettings = RunSettings & { sequence: SequenceRunSettings };

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
  sequence?: string;
  sequenceId?: string;
  repo?: string;
  repos?: string;
  memory?: boolean;
  zeroShot?: string;
  clWeights?: string;
  allowUnconfined?: boolean;
  maxCostPerTask?: string;
  maxCost?: string;
  replayFrom?: string;
  evictImages?: boolean;
}

/**
 * A headless run never drops confinement silently: it refuses to start when the agents (or
 * pytest here) cannot be confined, unless --allow-unconfined says to run anyway.
 */
export async function refuseUnconfined(
  values: RunValues,
  settings: { runtime: RuntimeSettings; agents: { architect: AgentSettings; programmer: AgentSettings } },
): Promise<void> {
  if (values.allowUnconfined) return;
  const cause = await unconfinedCause(settings.runtime, [settings.agents.architect, settings.agents.programmer]);
  if (!cause) return;
  throw new UserError(
    `Refusing to run: ${cause}. Unconfined, an agent can read the oracle and change the records. To run anyway, add --allow-unconfined: every iteration is then recorded, and marked by summarize, report, compare and the chart, as not isolated.`,
  );
}

/** The settings of a headless run: flags, then the --config file; every key of the file must be read. */
export async function readHeadlessSettings(values: RunValues): Promise<HeadlessSettings> {
  const file = values.config ? { path: values.config, settings: await readSettingsFile(values.config) } : undefined;
  const settings = cliSettings(values, file, { runtime: 'auto' });
  const run = readRunSettings(settings.read, settings.label);
  for (const role of ['architect', 'programmer'] as const) {
    if (run.agents[role].kind === 'human')
      throw new UserError(`A headless run has nobody to play the ${role}: choose an agent with --${role} <preset|custom> (or in the --config file).`);
  }
  const sequence = readSequenceSettings(settings.read, settings.label);
  const unread = file?.settings.unread() ?? [];
  if (unread.length > 0)
    throw new UserError(
      `${file!.path} has settings SWE-CI does not know: ${unread.map((k) => `sweci.${k}`).join(', ')}. Check their spelling against the README's settings table.`,
    );
  return { ...run, sequence };
}

/** Default run name: the experiment's, else the agents' label ("claude-code (opus)" → "claude-code-opus"). */
export async function defaultRunName(values: RunValues, experimentDir: string, agents: RunSettings['agents']): Promise<string> {
  return values.run ?? (await readExperiment(experimentDir))?.run ?? runNameFor(agents.architect, agents.programmer, Object.values(secretEnvOf(values)));
}

/** The batch settings of a headless run: the settings read, the API keys from the environment. */
export function batchSettingsOf(
  values: RunValues,
  s: HeadlessSettings,
  base: Pick<BatchSettings, 'experimentDir' | 'run' | 'signal' | 'onEvent' | 'humanHistory'>,
): BatchSettings {
  const { sequence: _sequence, ...settings } = s;
  return {
    ...base,
    settings,
    secretEnv: secretEnvOf(values),
    ...costBoundsOf(values, s.model.prices),
    ...(values.replayFrom ? { replayFrom: path.resolve(values.replayFrom) } : {}),
    ...(values.evictImages ? { evictImages: true } : {}),
  };
}

/** The secrets agents get: the known API keys and the --api-key-env variables, and the endpoint's key as SWECI_API_KEY. */
export function secretEnvOf(values: Pick<RunValues, 'apiKeyEnv'>): Record<string, string> {
  const env = apiKeysFrom(process.env, values.apiKeyEnv ?? []);
  const key = endpointKeyFrom(process.env, values.apiKeyEnv ?? []);
  if (key) env[ENDPOINT_KEY_ENV] = key;
  return env;
}

/** --max-cost-per-task and --max-cost, in dollars. */
function costBoundsOf(values: Pick<RunValues, 'maxCostPerTask' | 'maxCost'>, prices: ModelPrices): { cost?: CostBounds } {
  const dollars = (flag: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v) || v <= 0)
      throw new UserError(`${flag} must be a number of dollars above 0, e.g. 5 or 0.25, not ${JSON.stringify(text)}.`);
    return v;
  };
  const maxCostPerTask = dollars('--max-cost-per-task', values.maxCostPerTask);
  const maxCost = dollars('--max-cost', values.maxCost);
  if (maxCostPerTask === undefined && maxCost === undefined) return {};
  checkCostBounds({ maxCostPerTask, maxCost }, prices);
  return { cost: { ...(maxCostPerTask !== undefined ? { maxCostPerTask } : {}), ...(maxCost !== undefined ? { maxCost } : {}) } };
}
