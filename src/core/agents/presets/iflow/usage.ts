// iFlow CLI prints `<Execution Info>{json}</Execution Info>` (on stderr) after a
// non-interactive run, with `tokenUsage.input`, `tokenUsage.output` and `executionTimeMs`.
// The last block wins (a retried run may print several).
import { compact, type AgentUsage } from '../../reading/agent-usage';
import { isObject, num, tryParse } from '../../reading/json-scan';

const BLOCK = /<Execution Info>\s*([\s\S]*?)\s*<\/Execution Info>/g;

export function parseIflowUsage(...outputs: string[]): AgentUsage | undefined {
  let found: AgentUsage | undefined;
  for (const text of outputs) {
    for (const m of text.matchAll(BLOCK)) {
      const info = tryParse(m[1]);
      if (!isObject(info) || !isObject(info.tokenUsage)) continue;
      const inputTokens = num(info.tokenUsage.input);
      const outputTokens = num(info.tokenUsage.output);
      if (inputTokens !== undefined || outputTokens !== undefined) found = compact({ inputTokens, outputTokens });
    }
  }
  return found;
}
