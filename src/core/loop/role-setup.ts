// Settings → who plays each role in a task's environment: the one place the extension, the CLI
// and the loop turn agent settings into drivers, and say who played a role without its secrets.
import type { AgentRole, AgentSettings } from '../agents/agent-driver';
import { createDriver, type AgentRuntimes } from '../agents/cli-driver';
import { LocalRuntime } from '../runtime/local-runtime';
import type { TaskEnvironment } from '../runtime/task-environment';
import type { LoopOptions, RoleSetup } from './loop-types';
import type { ModelAccess } from '../agents/model-access';
import { agentSecrets } from '../agents/agent-settings';
import { SecretMask } from '../util/secret-mask';

export type AgentChoices = Record<AgentRole, AgentSettings>;

/** Agents run on this machine, or (runIn "container") in the task's containers. */
export function agentRuntimesOf(env: Pick<TaskEnvironment, 'host' | 'agents'>, model?: ModelAccess): AgentRuntimes {
  return { host: env.host, ...(env.agents ? { container: env.agents } : {}), ...(model ? { model } : {}) };
}

/**
 * The roles for one loop call. `human` lists roles the user plays in this call whatever the
 * settings say; `secretEnv` (API keys) is the agents' (through the gateway, only the gateway
 * holds the endpoint's key) and masked in what is archived; `model` says how they reach their model.
 */
export function setUpRoles(
  agents: AgentChoices,
  env: Pick<TaskEnvironment, 'host' | 'agents'>,
  secretEnv: Record<string, string>,
  human: readonly AgentRole[] = [],
  model?: ModelAccess,
): Record<AgentRole, RoleSetup> {
  const setup = (role: AgentRole): RoleSetup => {
    const settings: AgentSettings = human.includes(role) ? { kind: 'human' } : agents[role];
    return settings.kind === 'human' ? { settings } : { settings, driver: createDriver(settings, agentRuntimesOf(env, model), role), secretEnv };
  };
  return { architect: setup('architect'), programmer: setup('programmer') };
}

/**
 * Agent roles without a driver get the CLI driver for their settings, on this machine or in a
 * container (runIn). Without runtimes for agents, host agents use the tests' runtime when that
 * is local.
 */
export function resolveRoles(roles: Record<AgentRole, RoleSetup>, opts: Pick<LoopOptions, 'runtime' | 'agentRuntimes'>): Record<AgentRole, RoleSetup> {
  const runtimes: AgentRuntimes = opts.agentRuntimes ?? { host: opts.runtime.kind === 'local' ? opts.runtime : new LocalRuntime() };
  const resolve = (setup: RoleSetup, role: AgentRole): RoleSetup =>
    setup.settings.kind === 'human' || setup.driver ? setup : { ...setup, driver: createDriver(setup.settings, runtimes, role) };
  return { architect: resolve(roles.architect, 'architect'), programmer: resolve(roles.programmer, 'programmer') };
}

/** How run.json names who plays a role. */
export function roleLabel(setup: RoleSetup): string {
  return setup.settings.kind === 'human' ? 'human' : (setup.driver?.label ?? setup.settings.kind);
}

/**
 * Values run.json, the archives and every other record must never hold: the role's environment,
 * the secrets written into its settings (agentSecrets) and the API keys.
 */
export function roleSecrets(setup: RoleSetup): string[] {
  return [...agentSecrets(setup.settings), ...Object.values(setup.secretEnv ?? {})];
}

/** The one mask for what a run over these agents writes: both roles' secrets and the keys. */
export function agentsMask(agents: AgentChoices, secretEnv: Record<string, string> = {}): SecretMask {
  return new SecretMask([...roleSecrets({ settings: agents.architect, secretEnv }), ...roleSecrets({ settings: agents.programmer, secretEnv })]);
}
