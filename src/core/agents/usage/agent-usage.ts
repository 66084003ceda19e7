// What an agent's output says it used: tokens and cost, each only when reported.

/** Token usage and cost, when the agent reports them. */
export interface AgentUsage {
  inputTokens?: number;
  outputTokens?: number;
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
