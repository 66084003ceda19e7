// The environment variables the presets' agents read their API keys from. The extension keeps
// them in secret storage; the CLI takes them from its environment. Either way they reach the
// agent as its secret environment and are masked in everything archived.

export const KNOWN_API_KEYS: readonly { name: string; detail: string }[] = [
  { name: 'ANTHROPIC_API_KEY', detail: 'Claude Code' },
  { name: 'OPENAI_API_KEY', detail: 'Codex CLI, Aider, opencode (OpenAI-compatible)' },
  { name: 'GEMINI_API_KEY', detail: 'Gemini CLI' },
  { name: 'DASHSCOPE_API_KEY', detail: 'Qwen Code' },
  { name: 'IFLOW_API_KEY', detail: 'iFlow CLI' },
  { name: 'OPENROUTER_API_KEY', detail: 'OpenRouter-backed agents' },
];

/** The known API keys set in `env`, plus any other variables named in `extra`. */
export function apiKeysFrom(env: NodeJS.ProcessEnv, extra: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...KNOWN_API_KEYS.map((k) => k.name), ...extra]) {
    const value = env[name];
    if (value) out[name] = value;
  }
  return out;
}
