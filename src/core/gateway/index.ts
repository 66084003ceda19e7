// The model gateway's public face: the harness starts one per run and opens a try per agent try.
export { ModelGateway, MAX_IN_FLIGHT_PER_TRY, MAX_REQUEST_BYTES, type GatewayStartOptions } from './model-gateway';
export { GatewayTry, DEFAULT_IDLE_TIMEOUT_MS, type OpenTryOptions } from './gateway-try';
export type { TryWireSummary } from './try-summary';
export { Budget, type BudgetLimits, type TryBounds } from './budget';
export { costOf, readModelPrices, type ModelPrice, type ModelPrices } from './prices';
export { DEFAULT_RETRY, type RetryPolicy } from './retry-policy';
export type { RecordedCall } from './replay-answer';
export { clientBaseUrl } from './protocol-routes';
export { NO_USAGE, type WireUsage } from './wire-usage';
export { RECORD_CAP_BYTES } from './calls-file';
export { readGatewayCalls, parseGatewayCalls, type GatewayCall } from '../records/gateway-call';
