// Tokens and dollars as Inspect counts them (ModelUsage): its input_tokens are those charged at
// full rate, so the cache reads our records count inside the input are taken out of it and given
// as input_tokens_cache_read. Per model and per role, from the iteration.jsonl lines (the numbers
// every other reader of ours sums), or from one call's usage in a transcript.
import type { IterationRecord, RoleStepRecord } from '../../loop/iteration-record';
import type { RunInfo } from '../../loop/run-store';
import type { TranscriptUsage } from '../../../shared/transcript-schema';
import type { InspectModelUsage } from './inspect-log-types';

/** Our counts (input with cache reads in it) as Inspect's. */
export function inspectUsage(usage: TranscriptUsage, costUsd?: number): InspectModelUsage {
  const cached = Math.min(usage.cached, usage.input);
  return {
    input_tokens: usage.input - cached,
    output_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    input_tokens_cache_read: cached,
    ...(usage.reasoning > 0 ? { reasoning_tokens: usage.reasoning } : {}),
    ...(costUsd !== undefined ? { total_cost: costUsd } : {}),
  };
}

function add(into: InspectModelUsage | undefined, more: InspectModelUsage): InspectModelUsage {
  if (!into) return { ...more };
  const sum = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : a + b);
  const out: InspectModelUsage = {
    input_tokens: into.input_tokens + more.input_tokens,
    output_tokens: into.output_tokens + more.output_tokens,
    total_tokens: into.total_tokens + more.total_tokens,
  };
  const cacheRead = sum(into.input_tokens_cache_read, more.input_tokens_cache_read);
  const reasoning = sum(into.reasoning_tokens, more.reasoning_tokens);
  const cost = sum(into.total_cost, more.total_cost);
  if (cacheRead !== undefined) out.input_tokens_cache_read = cacheRead;
  if (reasoning !== undefined) out.reasoning_tokens = reasoning;
  if (cost !== undefined) out.total_cost = cost;
  return out;
}

/** One agent step's usage; undefined for a human's step or one with no token counts. */
function stepUsage(step: RoleStepRecord | undefined): InspectModelUsage | undefined {
  if (!step || step.kind !== 'agent' || (step.input_tokens === undefined && step.output_tokens === undefined)) return undefined;
  const usage = { input: step.input_tokens ?? 0, output: step.output_tokens ?? 0, cached: step.cached_tokens ?? 0, reasoning: step.reasoning_tokens ?? 0 };
  return inspectUsage(usage, step.cost_usd);
}

export interface UsageByKey {
  model: Record<string, InspectModelUsage>;
  role: Record<string, InspectModelUsage>;
}

/** The role's model as the run recorded it (its model setting, else the agent's label). */
export function roleModel(info: RunInfo, role: 'architect' | 'programmer'): string {
  const r = info.roles[role];
  return r.model ?? r.label;
}

/** The usage of a run's lines, by model and by role. */
export function linesUsage(info: RunInfo, lines: readonly IterationRecord[]): UsageByKey {
  const out: UsageByKey = { model: {}, role: {} };
  for (const line of lines) {
    for (const role of ['architect', 'programmer'] as const) {
      const usage = stepUsage(line[role]);
      if (!usage) continue;
      const model = roleModel(info, role);
      out.model[model] = add(out.model[model], usage);
      out.role[role] = add(out.role[role], usage);
    }
  }
  return out;
}

/** Several samples' usage summed (the eval's stats). */
export function sumUsage(parts: readonly UsageByKey[]): UsageByKey {
  const out: UsageByKey = { model: {}, role: {} };
  for (const part of parts) {
    for (const [k, v] of Object.entries(part.model)) out.model[k] = add(out.model[k], v);
    for (const [k, v] of Object.entries(part.role)) out.role[k] = add(out.role[k], v);
  }
  return out;
}
