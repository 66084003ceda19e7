// One model endpoint for every preset: a base URL, a key and the role's model (wire-protocol.ts),
// resolved for a preset in the protocol that preset speaks (its `protocol`, presets/<id>.ts).
import { PRESETS, presetById, type AgentPresetId } from '../presets';
import { endpointFor, type Endpoint, type WireProtocol } from '../wire-protocol';

export { ENDPOINT_KEY_ENV, NO_KEY_PLACEHOLDER, PROTOCOL_LABEL, endpointFor, parseBaseUrl, urlFor, type Endpoint, type WireProtocol } from '../wire-protocol';

export const PRESET_PROTOCOL: Readonly<Record<AgentPresetId, WireProtocol>> = Object.fromEntries(PRESETS.map((p) => [p.id, p.protocol])) as Record<
  AgentPresetId,
  WireProtocol
>;

export function resolveEndpoint(preset: AgentPresetId, baseUrl: string, key: string | undefined): Endpoint {
  return endpointFor(presetById(preset).protocol, baseUrl, key);
}
