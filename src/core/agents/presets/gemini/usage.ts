// Gemini CLI `--output-format json`: `{response, stats: {models: {<name>: {tokens: {prompt,
// candidates, cached, thoughts, ...}}}}}`. `prompt` already includes `cached`; thoughts are
// billed as output, so output = candidates + thoughts, summed over models. The stream-json
// `result` event carries flat `stats.input_tokens` / `stats.output_tokens`, used as given.
import { compact, type AgentUsage } from '../../reading/agent-usage';
import { isObject, jsonValues, num, sum, type JsonObject } from '../../reading/json-scan';

export function parseGeminiUsage(stdout: string): AgentUsage | undefined {
  let found: AgentUsage | undefined;
  for (const v of jsonValues(stdout)) {
    if (!isObject(v) || !isObject(v.stats)) continue;
    const u = fromStats(v.stats);
    if (u) found = u;
  }
  return found;
}

function fromStats(stats: JsonObject): AgentUsage | undefined {
  if (isObject(stats.models)) {
    let input: number | undefined;
    let output: number | undefined;
    for (const model of Object.values(stats.models)) {
      if (!isObject(model) || !isObject(model.tokens)) continue;
      const t = model.tokens;
      input = sum(input, num(t.prompt) ?? num(t.input));
      output = sum(output, num(t.candidates), num(t.thoughts));
    }
    if (input !== undefined || output !== undefined) return compact({ inputTokens: input, outputTokens: output });
  }
  const inputTokens = num(stats.input_tokens) ?? num(stats.inputTokens);
  const outputTokens = num(stats.output_tokens) ?? num(stats.outputTokens);
  if (inputTokens !== undefined || outputTokens !== undefined) return compact({ inputTokens, outputTokens });
  return undefined;
}
