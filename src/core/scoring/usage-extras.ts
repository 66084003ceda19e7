// What a run's agent steps cost beyond the metrics row: cached tokens, dollars, and where the
// token counts come from. Read from the iteration.jsonl lines only (never the agents' raw logs),
// so the per-run summary cache can keep it beside the scores.
import type { IterationRecord } from '../loop/iteration-record';

export type TokenSource = 'wire' | 'agent-reported' | 'mixed' | 'none';

export interface UsageExtras {
  cached: number;
  /** Dollars; null when some agent step has no price (or there is no agent step). */
  cost: number | null;
  source: TokenSource;
}

/** Cached tokens, dollars and the token counts' source over a run's agent steps. */
export function lineUsageExtras(lines: readonly IterationRecord[]): UsageExtras {
  let cached = 0;
  let cost = 0;
  let priced = true;
  let agentSteps = 0;
  const sources = new Set<TokenSource>();
  for (const line of lines) {
    for (const step of [line.architect, line.programmer]) {
      if (!step || step.kind !== 'agent') continue;
      agentSteps++;
      cached += step.cached_tokens ?? 0;
      if (step.cost_usd === undefined) priced = false;
      else cost += step.cost_usd;
      if (step.usage_source === 'wire') sources.add('wire');
      else if (step.input_tokens !== undefined || step.output_tokens !== undefined) sources.add('agent-reported');
    }
  }
  return { cached, cost: priced && agentSteps > 0 ? cost : null, source: combineSources([...sources]) };
}

export function combineSources(sources: readonly TokenSource[]): TokenSource {
  const known = new Set(sources.filter((s) => s !== 'none'));
  if (known.size === 0) return 'none';
  if (known.size > 1 || known.has('mixed')) return 'mixed';
  return [...known][0];
}
