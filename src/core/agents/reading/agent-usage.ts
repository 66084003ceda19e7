// What an agent used: tokens and cost, each only when reported (by its output, or by the wire).

/** Token usage and cost: as the agent reported them, or counted at the gateway (the wire). */
export interface AgentUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Of the input, read from the model's cache (the wire only). */
  cachedTokens?: number;
  /** Of the output, reasoning (the wire only). */
  reasoningTokens?: number;
  costUsd?: number;
}

/** The usage with only the figures that are there. */
export function compact(u: AgentUsage): AgentUsage {
  const out: AgentUsage = {};
  if (u.inputTokens !== undefined) out.inputTokens = u.inputTokens;
  if (u.outputTokens !== undefined) out.outputTokens = u.outputTokens;
  if (u.costUsd !== undefined) out.costUsd = u.costUsd;
  return out;
}
