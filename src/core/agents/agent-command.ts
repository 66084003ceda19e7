// What a CLI agent is run with: an argv (never a shell string) and how its prompt gets in.
import type { AgentRole } from './agent-driver';
import type { UsageFormat } from './agent-output';
import type { PresetArgv, PresetCommandContext } from './presets/agent-preset';

/** Everything a command builder may use for one try. */
export interface CommandContext extends PresetCommandContext {
  role: AgentRole;
}

export interface AgentCommand extends PresetArgv {
  command: string;
  /** The preset's output format, or 'auto' (a custom command: every format is tried). */
  usageFormat: UsageFormat | 'auto';
}
