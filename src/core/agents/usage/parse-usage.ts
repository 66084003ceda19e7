// Usage from output whose format is not known (a custom command's 'auto'): every parser in turn.
// A parser never throws: odd output means "not reported". Which parser a preset uses is the
// preset's own (presets/<id>.ts); agent-output.ts reads a named format with it.
import type { AgentUsage } from './agent-usage';
import { parseAiderUsage } from './aider';
import { parseClaudeCodeUsage } from './claude-code';
import { parseCodexUsage } from './codex';
import { parseGeminiUsage } from './gemini';
import { parseIflowUsage } from './iflow';
import { parseOpencodeUsage } from './opencode';

export type UsageParser = (stdout: string, stderr: string) => AgentUsage | undefined;

/** What `parser` reads, when it reads a figure; undefined when it reads none or fails. */
export function usageFrom(parser: UsageParser, stdout: string, stderr: string): AgentUsage | undefined {
  try {
    const usage = parser(stdout, stderr);
    if (usage && Object.keys(usage).length > 0) return usage;
  } catch {
    // A parser bug must not fail an agent run; 'auto' tries the next one.
  }
  return undefined;
}

// Most specific markers first: iFlow's block and aider's line cannot be mistaken for JSON.
const AUTO_ORDER: readonly UsageParser[] = [
  (out, err) => parseIflowUsage(err, out),
  (out) => parseAiderUsage(out),
  (out) => parseClaudeCodeUsage(out),
  (out) => parseCodexUsage(out),
  (out) => parseOpencodeUsage(out),
  (out) => parseGeminiUsage(out),
];

/** The first usage any parser reads. */
export function parseAnyUsage(stdout: string, stderr: string): AgentUsage | undefined {
  for (const parser of AUTO_ORDER) {
    const usage = usageFrom(parser, stdout, stderr);
    if (usage) return usage;
  }
  return undefined;
}
