// sweci curate --repair-agent: the agent that edits a failing environment's Dockerfile, set up as
// a loop's agent is: its settings through the one parser (flags, then --config's
// sweci.programmer.*), the same driver, the sandbox the runtime settings say, its model through
// the gateway, and a refusal to run unconfined unless --allow-unconfined says so.
import { readAgentSettings } from '../../core/agents/agent-settings';
import { createDriver } from '../../core/agents/cli-driver';
import { readModelAccess } from '../../core/agents/model-access';
import { agentRepair, DEFAULT_AGENT_REPAIRS } from '../../core/curate/agent-repair';
import type { AgentRepairHook } from '../../core/curate/env-image';
import { readRuntimeSettings } from '../../core/runtime/runtime-settings';
import { openHostRuntime } from '../../core/runtime/task-environment';
import { unconfinedCause } from '../../core/runtime/unconfined-check';
import { UserError } from '../../core/util/errors';
import { readSettingsFile } from '../../core/util/settings-file';
import { cliSettings } from '../cli-settings';
import { secretEnvOf } from './run-settings';

export interface RepairAgentValues extends Record<string, unknown> {
  repairAgent?: string;
  repairAgentCommand?: string;
  repairAgentModel?: string;
  agentRepairs?: string;
  config?: string;
  apiKeyEnv?: string[];
  allowUnconfined?: boolean;
}

/** The flags that name the repair agent's keys (the rest keep their own flags, or --config's key). */
const OWN_FLAGS: Record<string, string> = {
  'programmer.agent': '--repair-agent',
  'programmer.customCommand': '--repair-agent-command',
  'programmer.model': '--repair-agent-model',
};

export interface RepairAgent {
  hook: AgentRepairHook;
  /** Who repairs, for curation.json (no secrets: the driver's label). */
  label: string;
  tries: number;
}

/** The repair agent the flags ask for; undefined without --repair-agent. `hide`: the repository and the curation folder. */
export async function repairAgentOf(values: RepairAgentValues, hide: string[]): Promise<RepairAgent | undefined> {
  if (!values.repairAgent) {
    if (values.repairAgentCommand || values.agentRepairs)
      throw new UserError('--repair-agent-command and --agent-repairs go with --repair-agent <preset|custom>, which names the agent.');
    return undefined;
  }
  const tries = values.agentRepairs === undefined ? DEFAULT_AGENT_REPAIRS : Number(values.agentRepairs);
  if (!Number.isInteger(tries) || tries < 1) throw new UserError(`--agent-repairs must be a whole number of 1 or more, not "${values.agentRepairs}".`);
  const file = values.config ? { path: values.config, settings: await readSettingsFile(values.config) } : undefined;
  const flags = { ...values, programmer: values.repairAgent, programmerCommand: values.repairAgentCommand, programmerModel: values.repairAgentModel };
  const settings = cliSettings(flags, file);
  const label = (key: string): string => OWN_FLAGS[key] ?? settings.label(key);
  const agent = readAgentSettings('programmer', settings.read, label);
  if (agent.kind === 'human') throw new UserError('--repair-agent names an agent (a preset or custom); a human edits the Dockerfile in <out>/env/ instead.');
  const runtime = readRuntimeSettings(settings.read, label);
  if (!values.allowUnconfined) {
    const cause = await unconfinedCause(runtime, [agent]);
    if (cause)
      throw new UserError(
        `Refusing the repair agent: ${cause}. Unconfined, it could read the repository and change the curation. To run it anyway, add --allow-unconfined.`,
      );
  }
  const driver = createDriver(agent, { host: await openHostRuntime(runtime), model: readModelAccess(settings.read, label) }, 'programmer');
  const hook = agentRepair({
    driver,
    keys: secretEnvOf(values),
    env: agent.env ?? {},
    tries,
    timeoutMs: (agent.timeoutSec ?? 3600) * 1000,
    hide,
  });
  return { hook, label: driver.label, tries };
}
