// Which API keys of the harness (stored in secret storage, or in the CLI's environment and named
// by --api-key-env) an agent's try is given. The rule: none, unless its role names the key AND
// its route needs one, which is only when the agent calls its model itself: the open network (or
// no confinement) and no endpoint, so no gateway. Through the gateway it holds a token of its try;
// with no network (a custom agent without an endpoint) a key is of no use to it and could only
// leave in the code it writes. A role names a key by its preset (the variable its CLI reads for
// its own account) or by sweci.<role>.apiKeys.
import type { AgentNetwork, AgentSettings } from './agent-driver';
import { presetById } from './presets';

/** The keys the role names: its preset's own and sweci.<role>.apiKeys. */
export function namedKeys(settings: Exclude<AgentSettings, { kind: 'human' }>): string[] {
  const own = settings.kind === 'preset' ? presetById(settings.preset).apiKeys : [];
  return [...new Set([...own, ...(settings.apiKeys ?? [])])];
}

/** Whether a try on this route calls its model itself (and so may need a key of its own). */
export const routeNeedsKey = (network: AgentNetwork, throughGateway: boolean): boolean => !throughGateway && (network === 'open' || network === 'not-confined');

/** Of the harness's keys, those the rule gives this try (none through the gateway). */
export function keysForTry(
  keys: Readonly<Record<string, string>>,
  settings: Exclude<AgentSettings, { kind: 'human' }>,
  network: AgentNetwork,
): Record<string, string> {
  const given = new Set(routeNeedsKey(network, false) ? namedKeys(settings) : []);
  return Object.fromEntries(Object.entries(keys).filter(([name]) => given.has(name)));
}
