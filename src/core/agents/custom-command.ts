// A user's own agent command: an argv template split like a shell would (no shell runs it),
// with {promptFile} {model} {cwd} {role} substituted inside words.
import { UserError } from '../util/errors';
import type { AgentCommand, CommandContext } from './agent-command';
import { tokenizeCommand } from '../util/argv-tokenizer';

export const CUSTOM_PLACEHOLDERS = ['promptFile', 'model', 'cwd', 'role'] as const;
type Placeholder = (typeof CUSTOM_PLACEHOLDERS)[number];

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface CustomCommandOptions {
  command: string;
  promptVia?: 'stdin' | 'file';
}

export function buildCustomCommand(opts: CustomCommandOptions, ctx: CommandContext): AgentCommand {
  const words = tokenizeCommand(opts.command);
  if (words.length === 0) throw new UserError('The custom agent command is empty. Set it to the command line that runs your agent.');
  const promptVia = opts.promptVia ?? 'stdin';
  const values: Record<Placeholder, string | undefined> = {
    promptFile: ctx.promptFile,
    model: ctx.model?.trim() || undefined,
    cwd: ctx.cwd,
    role: ctx.role,
  };
  const used = new Set<string>();
  const substitute = (word: string): string =>
    word.replace(PLACEHOLDER, (whole, name: string) => {
      if (!(CUSTOM_PLACEHOLDERS as readonly string[]).includes(name)) {
        throw new UserError(`The custom agent command uses an unknown placeholder {${name}}. Known: ${CUSTOM_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}.`);
      }
      used.add(name);
      const value = values[name as Placeholder];
      if (value === undefined) {
        throw new UserError(`The custom agent command uses ${whole} but no model is set. Set the agent's model, or remove ${whole}.`);
      }
      return value;
    });
  const [command, ...args] = words.map(substitute);
  if (promptVia === 'file' && !used.has('promptFile')) {
    throw new UserError(
      'The custom agent command takes its prompt from a file but does not mention {promptFile}. Add {promptFile} where the agent expects the file, or take the prompt on stdin.',
    );
  }
  if (command === '') throw new UserError('The custom agent command starts with an empty word. Name the executable first.');
  return {
    command,
    args: [...args, ...(ctx.extraArgs ?? [])],
    stdin: promptVia === 'stdin' ? ctx.prompt : undefined,
    promptVia,
    // Its output may be any agent's: every preset's usage and error readers are tried.
    usageFormat: 'auto',
  };
}
