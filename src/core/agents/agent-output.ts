// What an agent's output says: its token usage and the error it reports, read by its preset's
// readers (presets/<id>/); a custom command's in 'auto' (presets/auto-detect.ts). Never throws: odd output means "not reported".
import { presetById, type AgentPresetId } from './presets';
import type { AgentUsage } from './reading/agent-usage';
import { anyReportedError, parseAnyUsage, usageFrom } from './presets/auto-detect';

/** The output formats a command may be read in: each preset's own. */
export type UsageFormat = AgentPresetId;

/** 'auto' tries every format (custom commands). */
export function parseUsage(format: UsageFormat | 'auto', stdout: string, stderr: string): AgentUsage | undefined {
  if (format === 'auto') return parseAnyUsage(stdout, stderr);
  const preset = presetById(format);
  return usageFrom((out, err) => preset.readUsage(out, err), stdout, stderr);
}

/** The error the agent's own output reports; 'auto' (custom commands) reads every structured form. */
export function reportedError(format: UsageFormat | 'auto', stdout: string, stderr: string): string | undefined {
  try {
    return format === 'auto' ? anyReportedError(stdout, stderr) : presetById(format).readError?.(stdout, stderr);
  } catch {
    return undefined;
  }
}
