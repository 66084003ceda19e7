// Qwen Code's JSON output: Claude-shaped messages ending with a result (an array of them in logs
// recorded before). It speaks Chat Completions, whose prompt count already includes the cached
// tokens, and copies it into `input_tokens`: its cache fields are not added again. Early builds
// kept Gemini CLI's stats object.
import type { AgentUsage } from '../../reading/agent-usage';
import { num } from '../../reading/json-scan';
import { resultUsage } from '../claude-code/usage';
import { parseGeminiUsage } from '../gemini/usage';

export function parseQwenUsage(stdout: string): AgentUsage | undefined {
  return resultUsage(stdout, (usage) => num(usage.input_tokens)) ?? parseGeminiUsage(stdout);
}
