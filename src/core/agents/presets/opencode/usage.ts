// opencode `run --format json` JSON Lines: each `step_finish` event's `part` carries that
// step's `tokens` ({input, output, reasoning, cache: {read, write}}) and `cost`; steps are
// summed. Input includes cache reads and writes, output includes reasoning (as for the other
// agents). Without `--format json` opencode prints no usage: undefined.
import { compact, type AgentUsage } from '../../reading/agent-usage';
import { isObject, jsonValues, num, sum } from '../../reading/json-scan';

export function parseOpencodeUsage(stdout: string): AgentUsage | undefined {
  let input: number | undefined;
  let output: number | undefined;
  let cost: number | undefined;
  for (const v of jsonValues(stdout)) {
    if (!isObject(v) || (v.type !== 'step_finish' && v.type !== 'step-finish')) continue;
    const part = isObject(v.part) ? v.part : v;
    if (isObject(part.tokens)) {
      const t = part.tokens;
      const cache = isObject(t.cache) ? t.cache : {};
      input = sum(input, num(t.input), num(cache.read), num(cache.write));
      output = sum(output, num(t.output), num(t.reasoning));
    }
    cost = sum(cost, num(part.cost));
  }
  if (input === undefined && output === undefined && cost === undefined) return undefined;
  return compact({ inputTokens: input, outputTokens: output, costUsd: cost });
}
