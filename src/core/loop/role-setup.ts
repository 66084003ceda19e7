// Settings → who plays each role in a task's environment: the one place the extension and the
// CLI turn agent settings into drivers.
import type { AgentRole, AgentSettings } from '../agents/agent-driver';
import { createDriver, type AgentRuntimes } from '../agents/cli-driver';
import type { TaskEnvironment } from '../runtime/task-environment';
import type { RoleSetup } from './loop-types';

export type AgentChoices = Record<AgentRole, AgentSettings>;

/** Agents run on this machine, or (runIn "container") in the task's containers. */
export function agentRuntimesOf(env: Pick<TaskEnvironment, 'host' | 'agents'>): AgentRuntimes {
  return { host: env.host, ...(env.agents ? { container: env.agents } : {}) };
}

/**
 * The roles for one loop call. `human` lists roles the user plays in this call whatever the
 * settings say; `secretEnv` (API keys) reaches every agent and is masked in what is archived.
 */
export function setUpRoles(
  agents: AgentChoices,
  env: Pick<TaskEnvironment, 'host' | 'agents'>,
  secretEnv: Record<string, string>,
  human: readonly AgentRole[] = [],
): Record<AgentRole, RoleSetup> {
  const setup = (role: AgentRole): RoleSetup => {
    const settings: AgentSettings = human.includes(role) ? { kind: 'human' } : agents[role];
    return settings.kind === 'human' ? { settings } : { settings, driver: createDriver(settings, agentRuntimesOf(env), role), secretEnv };
  };
  return { architect: setup('architect'), programmer: setup('programmer') };
}
