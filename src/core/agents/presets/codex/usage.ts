// Codex `exec --json` JSON Lines. Each `turn.completed` event carries that turn's usage
// (`input_tokens` already includes `cached_input_tokens`; `output_tokens` includes reasoning),
// so turns are summed. Older builds emitted `token_count` events with cumulative totals in
// `info.total_token_usage` (possibly wrapped in `msg` or `payload`); the last one is used.
import { compact, type AgentUsage } from '../../reading/agent-usage';
import { isObject, jsonValues, num, sum, type JsonObject } from '../../reading/json-scan';

export function parseCodexUsage(stdout: string): AgentUsage | undefined {
  let turnInput: number | undefined;
  let turnOutput: number | undefined;
  let turns = 0;
  let cumulative: JsonObject | undefined;
  for (const v of jsonValues(stdout)) {
    if (!isObject(v)) continue;
    if (v.type === 'turn.completed' && isObject(v.usage)) {
      turns++;
      turnInput = sum(turnInput, num(v.usage.input_tokens));
      turnOutput = sum(turnOutput, num(v.usage.output_tokens));
      continue;
    }
    const event = [v, v.msg, v.payload].find((e): e is JsonObject => isObject(e) && e.type === 'token_count');
    const info = event && isObject(event.info) ? event.info : undefined;
    if (info && isObject(info.total_token_usage)) cumulative = info.total_token_usage;
  }
  if (turns > 0 && (turnInput !== undefined || turnOutput !== undefined)) {
    return compact({ inputTokens: turnInput, outputTokens: turnOutput });
  }
  if (cumulative) {
    const inputTokens = num(cumulative.input_tokens);
    const outputTokens = num(cumulative.output_tokens);
    if (inputTokens !== undefined || outputTokens !== undefined) return compact({ inputTokens, outputTokens });
  }
  return undefined;
}
