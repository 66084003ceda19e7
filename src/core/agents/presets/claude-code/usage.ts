// Claude Code `--output-format json` (one result object) or `stream-json` (JSON Lines ending
// with the result). Input tokens include cache reads and writes: Claude reports them apart from
// `input_tokens` (Anthropic's sense), and the sum is what the model actually read (comparable
// with other agents). Qwen Code prints the same shape (presets/qwen/usage.ts).
import { compact, type AgentUsage } from '../../reading/agent-usage';
import { isObject, jsonValues, num, sum, type JsonObject } from '../../reading/json-scan';

export function parseClaudeCodeUsage(stdout: string): AgentUsage | undefined {
  return resultUsage(stdout, (usage) => sum(num(usage.input_tokens), num(usage.cache_creation_input_tokens), num(usage.cache_read_input_tokens)));
}

/** The usage of the last `result` object in `stdout`, its input counted by `input`. */
export function resultUsage(stdout: string, input: (usage: JsonObject) => number | undefined): AgentUsage | undefined {
  const results = jsonValues(stdout).filter((v): v is JsonObject => isObject(v) && v.type === 'result');
  const result = results[results.length - 1];
  if (!result) return undefined;
  const usage = isObject(result.usage) ? result.usage : undefined;
  const inputTokens = usage ? input(usage) : undefined;
  const outputTokens = usage ? num(usage.output_tokens) : undefined;
  const costUsd = num(result.total_cost_usd) ?? num(result.cost_usd);
  if (inputTokens === undefined && outputTokens === undefined && costUsd === undefined) return undefined;
  return compact({ inputTokens, outputTokens, costUsd });
}
