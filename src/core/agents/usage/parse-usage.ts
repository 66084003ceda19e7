// Usage by output format. A parser never throws: odd output means "not reported".
import type { AgentUsage } from '../agent-driver';
import { parseAiderUsage } from './aider';
import { parseClaudeCodeUsage, parseQwenUsage } from './claude-code';
import { parseCodexUsage } from './codex';
import { parseGeminiUsage } from './gemini';
import { parseIflowUsage } from './iflow';
import { parseOpencodeUsage } from './opencode';

export const USAGE_FORMATS = ['claude-code', 'codex', 'gemini', 'qwen', 'opencode', 'iflow', 'aider'] as const;
export type UsageFormat = (typeof USAGE_FORMATS)[number];

const PARSERS: Record<UsageFormat, (stdout: string, stderr: string) => AgentUsage | undefined> = {
  'claude-code': (out) => parseClaudeCodeUsage(out),
  codex: (out) => parseCodexUsage(out),
  gemini: (out) => parseGeminiUsage(out),
  // Qwen Code's JSON output is Claude-shaped, but its input count already holds the cached tokens;
  // early builds kept Gemini CLI's stats object.
  qwen: (out) => parseQwenUsage(out) ?? parseGeminiUsage(out),
  opencode: (out) => parseOpencodeUsage(out),
  iflow: (out, err) => parseIflowUsage(err, out),
  aider: (out) => parseAiderUsage(out),
};

/** 'auto' tries every format (custom commands); 'none' reports nothing. */
export function parseUsage(format: UsageFormat | 'auto' | 'none', stdout: string, stderr: string): AgentUsage | undefined {
  if (format === 'none') return undefined;
  const formats = format === 'auto' ? AUTO_ORDER : [format];
  for (const f of formats) {
    try {
      const usage = PARSERS[f](stdout, stderr);
      if (usage && Object.keys(usage).length > 0) return usage;
    } catch {
      // A parser bug must not fail an agent run; try the next one.
    }
  }
  return undefined;
}

// Most specific markers first: iFlow's block and aider's line cannot be mistaken for JSON.
const AUTO_ORDER: UsageFormat[] = ['iflow', 'aider', 'claude-code', 'codex', 'opencode', 'gemini'];
