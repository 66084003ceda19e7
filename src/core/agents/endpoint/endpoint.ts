// One model endpoint for every preset: a base URL, a key and the role's model (wire-protocol.ts),
// resolved for a preset in the protocol that preset speaks (its `protocol`, presets/<id>/preset.ts).
import { PRESETS, presetById, type AgentPresetId } from '../presets';
import type { AgentSettings } from '../agent-driver';
import { endpointFor, type Endpoint, type WireProtocol } from '../wire-protocol';

export { ENDPOINT_KEY_ENV, NO_KEY_PLACEHOLDER, PROTOCOL_LABEL, endpointFor, parseBaseUrl, urlFor, type Endpoint, type WireProtocol } from '../wire-protocol';

export const PRESET_PROTOCOL: Readonly<Record<AgentPresetId, WireProtocol>> = Object.fromEntries(PRESETS.map((p) => [p.id, p.protocol])) as Record<
  AgentPresetId,
  WireProtocol
>;

export function resolveEndpoint(preset: AgentPresetId, baseUrl: string, key: string | undefined): Endpoint {
  return endpointFor(presetById(preset).protocol, baseUrl, key);
}

/** What a custom agent with an endpoint is assumed to speak: the protocol most model servers and scripts use. */
export const CUSTOM_AGENT_PROTOCOL = 'chat-completions' as const;

/** The endpoint a role's settings name (a preset's in its own protocol, a custom agent's in Chat Completions), with the real key; undefined when none is set. */
export function configuredEndpoint(settings: Exclude<AgentSettings, { kind: 'human' }>, key: string | undefined): Endpoint | undefined {
  if (!settings.baseUrl) return undefined;
  return settings.kind === 'preset' ? resolveEndpoint(settings.preset, settings.baseUrl, key) : endpointFor(CUSTOM_AGENT_PROTOCOL, settings.baseUrl, key);
}
