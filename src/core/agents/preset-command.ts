// A preset's command for one try: its executable (or the one the settings name) and the argv its
// definition builds (presets/<id>/preset.ts). No shell ever runs these: the prompt goes in on stdin, as a
// file path, or as one argv element. A custom command is custom-command.ts's.
import type { AgentCommand, CommandContext } from './agent-command';
import { presetById, type AgentPresetId } from './presets';

export function buildPresetCommand(preset: AgentPresetId, ctx: CommandContext, executable?: string): AgentCommand {
  const p = presetById(preset);
  const argv = p.command({ ...ctx, model: ctx.model?.trim() || undefined, confined: ctx.confined === true });
  return { command: executable || p.executable, usageFormat: p.id, ...argv };
}
