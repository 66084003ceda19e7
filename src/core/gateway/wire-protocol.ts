// The wire protocols agents speak to their model, as the gateway and its records name them
// (the presets choose one each: agents/endpoint).
import type { GATEWAY_PROTOCOLS } from '../records/gateway-call';

export type WireProtocol = (typeof GATEWAY_PROTOCOLS)[number];
