// Qwen Code's `--output-format stream-json`: Claude Code's shape (presets/claude-code/events.ts),
// its usage counted as Chat Completions count it.
import { claudeShapedReader } from '../claude-code/events';

export const qwenStream = claudeShapedReader('qwen');
