// What a CLI agent is run with: an argv (never a shell string) and how its prompt gets in.
import type { AgentRole } from './agent-driver';
import type { UsageFormat } from './usage/parse-usage';

/** Everything a command builder may use for one attempt. */
export interface CommandContext {
  role: AgentRole;
  /** The rendered prompt. */
  prompt: string;
  /** The prompt, already written to this file. */
  promptFile: string;
  /** The agent's working directory (the task's app/ folder). */
  cwd: string;
  model?: string;
  extraArgs?: readonly string[];
  /** The step runs in a sandbox or a container: presets then accept every action (as the reference's agents do). */
  confined?: boolean;
  /** A model endpoint is configured: presets that name providers use ours (PROVIDER_ID). */
  endpoint?: boolean;
}

export interface AgentCommand {
  command: string;
  args: string[];
  /** Text written to the agent's stdin (then closed); undefined: stdin is not connected. */
  stdin?: string;
  /**
   * How the prompt reaches the agent: on stdin, as the path of the prompt file, or as the
   * prompt text in one argv element (still no shell: the element is passed as is).
   */
  promptVia: 'stdin' | 'file' | 'argv';
  usageFormat: UsageFormat | 'auto' | 'none';
}
