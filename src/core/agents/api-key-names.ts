// The environment variables the presets' agents read their API keys from. The extension keeps
// them in secret storage; the CLI takes them from its environment. Either way they reach the
// agent as its secret environment and are masked in everything archived.

import { UserError } from '../util/errors';
import { ENDPOINT_KEY_ENV } from './endpoint/endpoint';
import { PRESETS } from './presets';
import type { AgentPreset } from './presets/agent-preset';

/** The keys the presets read (each with the presets that read it), the endpoint's and OpenRouter's. */
export const KNOWN_API_KEYS: readonly { name: string; detail: string }[] = [
  { name: ENDPOINT_KEY_ENV, detail: 'The model endpoint (sweci.agents.baseUrl): every preset gets it in its own terms' },
  ...presetKeys(),
  { name: 'OPENROUTER_API_KEY', detail: 'OpenRouter-backed agents' },
];

function presetKeys(): { name: string; detail: string }[] {
  const readers = new Map<string, string[]>();
  for (const p of PRESETS as readonly AgentPreset[]) for (const key of p.apiKeys) readers.set(key, [...(readers.get(key) ?? []), p.label]);
  return [...readers].map(([name, labels]) => ({ name, detail: labels.join(', ') }));
}

/**
 * The endpoint's key for a headless run: the first of `names` (--api-key-env) when given, which
 * must be set; else SWECI_API_KEY. Undefined when neither is set.
 */
export function endpointKeyFrom(env: NodeJS.ProcessEnv, names: readonly string[] = []): string | undefined {
  if (names.length > 0) {
    const value = env[names[0]];
    if (!value)
      throw new UserError(`--api-key-env ${names[0]}: ${names[0]} is not set in this environment. Export it (export ${names[0]}=…) or name another variable.`);
    return value;
  }
  return env[ENDPOINT_KEY_ENV] || undefined;
}

/** The known API keys set in `env`, plus any other variables named in `extra`. */
export function apiKeysFrom(env: NodeJS.ProcessEnv, extra: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...KNOWN_API_KEYS.map((k) => k.name), ...extra]) {
    const value = env[name];
    if (value) out[name] = value;
  }
  return out;
}
