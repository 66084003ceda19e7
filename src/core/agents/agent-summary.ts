// One line per role for views: who plays it, which endpoint it talks to, and what it may do
// there (every action when its step is confined, file edits only when it is not).
import type { AgentRole, AgentSettings } from './agent-driver';
import { agentLabel } from './agent-settings';
import { customLabel } from './cli-driver';
import { PRESET_PROTOCOL, PROTOCOL_LABEL, urlFor } from './endpoint/endpoint';
import { presetPermissions } from './preset-setup';

export interface RoleSummary {
  role: AgentRole;
  label: string;
  /** The endpoint as the preset's clients see it, or how the agent authenticates otherwise. */
  endpoint: string;
  permissions: string;
  /** A preset held to file edits because its step is not confined. */
  restricted: boolean;
}

/** A role's agent for views: the preset and model, or the custom command's program ("custom: agent.py"). */
export function roleLabel(s: AgentSettings): string {
  return s.kind === 'custom' ? `${customLabel(s.command)}${s.model ? ` (${s.model})` : ''}` : agentLabel(s);
}

/** `confined`: the role's step runs in a sandbox or a container. */
export function summarizeRole(role: AgentRole, s: AgentSettings, confined: boolean): RoleSummary {
  if (s.kind === 'human') return { role, label: 'human', endpoint: 'you play this role', permissions: 'you edit and submit', restricted: false };
  if (s.kind === 'custom') {
    return {
      role,
      label: roleLabel(s),
      endpoint: s.baseUrl ? `${s.baseUrl} (as SWECI_BASE_URL)` : 'its own configuration',
      permissions: confined ? 'runs confined' : 'runs unconfined: it may do whatever your user may',
      restricted: false,
    };
  }
  const protocol = PRESET_PROTOCOL[s.preset];
  return {
    role,
    label: agentLabel(s),
    endpoint: s.baseUrl ? `${urlFor(protocol, s.baseUrl)} (${PROTOCOL_LABEL[protocol]})` : "the CLI's own login",
    permissions: presetPermissions(s.preset, confined),
    restricted: !confined,
  };
}
