// Claude Code `--output-format json` (one result object) or `stream-json` (JSON Lines ending
// with the result). Qwen Code's JSON output is an array of messages ending with a result of the
// same shape. Input tokens include cache reads and writes: Claude reports them apart from
// `input_tokens` (Anthropic's sense), and the sum is what the model actually read (comparable
// with other agents). Qwen Code speaks Chat Completions, whose prompt count already includes the
// cached tokens, and copies it into `input_tokens`: its cache fields are not added again.
import { compact, type AgentUsage } from './agent-usage';
import { isObject, jsonValues, num, sum, type JsonObject } from './json-scan';

export function parseClaudeCodeUsage(stdout: string): AgentUsage | undefined {
  return resultUsage(stdout, (usage) => sum(num(usage.input_tokens), num(usage.cache_creation_input_tokens), num(usage.cache_read_input_tokens)));
}

export function parseQwenUsage(stdout: string): AgentUsage | undefined {
  return resultUsage(stdout, (usage) => num(usage.input_tokens));
}

function resultUsage(stdout: string, input: (usage: JsonObject) => number | undefined): AgentUsage | undefined {
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
