// Output of unknown origin (a custom command's 'auto', a log whose preset's reader does not
// recognise it): every preset that says how (`auto` in presets/<id>/preset.ts) is tried in its
// rank's order, most specific markers first. The order is derived from PRESETS, so a new preset
// takes part by its own file alone. A reader never throws here: odd output means "not reported".
import type { AgentUsage } from '../reading/agent-usage';
import type { EventReader } from '../reading/event-turns';
import type { AgentPreset } from './agent-preset';
import { PRESETS } from './index';

export type UsageParser = (stdout: string, stderr: string) => AgentUsage | undefined;

/** What `parser` reads, when it reads a figure; undefined when it reads none or fails. */
export function usageFrom(parser: UsageParser, stdout: string, stderr: string): AgentUsage | undefined {
  try {
    const usage = parser(stdout, stderr);
    if (usage && Object.keys(usage).length > 0) return usage;
  } catch {
    // A parser bug must not fail an agent run; 'auto' tries the next one.
  }
  return undefined;
}

/** The presets 'auto' tries, in order. */
const AUTO: readonly AgentPreset[] = PRESETS.flatMap((p: AgentPreset) => (p.auto ? [{ preset: p, rank: p.auto.rank }] : []))
  .sort((a, b) => a.rank - b.rank)
  .map((x) => x.preset);

/** The first usage any preset's reader finds. */
export function parseAnyUsage(stdout: string, stderr: string): AgentUsage | undefined {
  for (const preset of AUTO) {
    const usage = usageFrom((out, err) => preset.readUsage(out, err), stdout, stderr);
    if (usage) return usage;
  }
  return undefined;
}

/** The first error a preset's reader specific enough for any output finds. */
export function anyReportedError(stdout: string, stderr: string): string | undefined {
  for (const preset of AUTO) {
    if (!preset.auto?.error || !preset.readError) continue;
    const error = preset.readError(stdout, stderr);
    if (error) return error;
  }
  return undefined;
}

/** Event readers in 'auto' order, each once (presets may share one). */
export const AUTO_EVENT_READERS: readonly EventReader[] = [...new Set(AUTO.flatMap((p) => (p.events ? [p.events] : [])))];
