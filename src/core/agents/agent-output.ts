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

/**
 * The line of a failed command's output that most likely says why: the last one naming an error,
 * else the last one (the usage block and the log's own `# ` lines skipped), control characters
 * out and at most 300 characters. Agent output is hostile: this only ever quotes it.
 */
export function lastWords(output: string): string | undefined {
  const lines: string[] = [];
  let inUsage = false;
  for (const raw of output.split('\n')) {
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this strips
    const l = raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
    if (l === '<Execution Info>') inUsage = true;
    else if (l === '</Execution Info>') inUsage = false;
    else if (l && !inUsage && !l.startsWith('# ')) lines.push(l);
  }
  const line = [...lines].reverse().find((l) => /error|denied|refused|fail/i.test(l)) ?? lines[lines.length - 1];
  return line?.slice(0, 300);
}
