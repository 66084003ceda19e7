// How one agent try reaches its model. With an endpoint, through the gateway: the try gets a token
// of its own as its key and the gateway's address as its endpoint, and a confined step with
// `model-only` network (the default) has no network but the gateway (its socket and a forwarder on
// the step's own loopback). The real key stays in the harness; every call is recorded, counted and
// bounded there. Without an endpoint a preset could only use the CLI's own login, which needs the
// open network: refused under `model-only`, with the settings that fix it. After the try, what the
// wire saw becomes its result (withWire) and the last lines of its log (wireFooter).
import type { NetworkConfinement } from '../runtime/sandbox';
import type { Budget } from '../gateway/budget';
import type { GatewayTry } from '../gateway/gateway-try';
import { clientBaseUrl } from '../gateway/protocol-routes';
import { UserError } from '../util/errors';
import type { AgentNetwork, AgentRole, AgentRunResult, AgentSettings } from './agent-driver';
import { KNOWN_API_KEYS } from './api-key-names';
import type { TryWireSummary } from '../gateway/try-summary';
import { configuredEndpoint, ENDPOINT_KEY_ENV, type Endpoint } from './endpoint/endpoint';
import type { ModelAccess } from './model-access';
import { sharedGateway } from './shared-gateway';

/** The loopback port a confined step's forwarder listens on (its own network namespace: any port is free). */
export const GATEWAY_PORT_IN_STEP = 4180;

/** The try's way to its model: what the agent is given, its network, and the gateway's side of it. */
export interface ModelRoute {
  /** The endpoint as the agent sees it (the gateway and a token), or undefined without one. */
  endpoint?: Endpoint;
  /** The network of a confined step; undefined: as the runtime has it (not confined). */
  network?: NetworkConfinement;
  /** What the records say: `model-only`, `open`, or `none` (a custom agent with no endpoint). */
  networkLabel: AgentNetwork;
  /** The gateway's side of the try; closed by the caller once the agent is gone. */
  gatewayTry?: GatewayTry;
  /** Values that must never appear in logs (the real key, the token). */
  secrets: string[];
  /** On a replay, what answers the try's calls, for its log. */
  replayNote?: string;
}

export interface RouteRequest {
  settings: Exclude<AgentSettings, { kind: 'human' }>;
  role: AgentRole;
  /** The request's environment (the stored key as SWECI_API_KEY among it). */
  env: Readonly<Record<string, string>>;
  confined: boolean;
  /** The step runs in a container: it reaches the gateway through its socket too (no loopback of the host there). */
  inContainer: boolean;
  access: ModelAccess;
  /** The try's calls, one JSON line each. */
  callsFile: string;
  /** Which try of which iteration, for a replay's recording. */
  at?: { iteration: number; try: number };
  /** The step's own budget (tokens, record bytes), shared by its tries. */
  stepBudget?: Budget;
  /** Called when the gateway stops the try (a spent bound, a divergence): the caller ends it. */
  onStop: (reason: string) => void;
}

export async function openModelRoute(req: RouteRequest): Promise<ModelRoute> {
  const real = configuredEndpoint(req.settings, req.env[ENDPOINT_KEY_ENV]);
  const ownNetwork = req.confined && req.access.network === 'model-only';
  if (!real) {
    if (!ownNetwork) return { networkLabel: req.confined ? 'open' : 'not-confined', ...(req.confined ? { network: { kind: 'open' } } : {}), secrets: [] };
    if (req.settings.kind === 'preset') {
      throw new UserError(
        `The ${req.role}'s agent has no model endpoint, and a confined agent reaches nothing but its model through SWE-CI's gateway (sweci.agents.network is "model-only"). ` +
          `Set sweci.agents.baseUrl (or sweci.${req.role}.baseUrl) to the model's API and store its key with "SWE-CI: Set API Key…" (or ${ENDPOINT_KEY_ENV}); ` +
          `or set sweci.agents.network to "open" to let the CLI use its own login and the whole network (the run is then flagged network-open).`,
        { setting: 'agents.network' },
      );
    }
    // A custom agent without an endpoint calls no model of ours: it gets no network at all.
    return { networkLabel: 'none', network: { kind: 'none' }, secrets: [] };
  }
  const gateway = await sharedGateway();
  const replay = req.access.replay && req.at ? await req.access.replay({ ...req.at, role: req.role }) : undefined;
  if (req.access.replay && !replay) {
    throw new UserError(
      `Nothing to replay for the ${req.role}'s try ${req.at?.try ?? '?'} of iteration ${req.at?.iteration ?? '?'}: the recorded run has no calls for it. Replay only what was recorded through the gateway.`,
    );
  }
  const budgets = [...(req.stepBudget ? [req.stepBudget] : []), ...(req.access.budgets ?? [])];
  const gatewayTry = gateway.openTry({
    protocol: real.protocol,
    upstream: replay ? undefined : { url: real.url, key: real.key },
    callsFile: req.callsFile,
    bounds: {
      ...(req.access.maxCallsPerTry > 0 ? { maxCalls: req.access.maxCallsPerTry } : {}),
      ...(req.access.maxCallsBytesPerTry > 0 ? { maxRecordBytes: req.access.maxCallsBytesPerTry } : {}),
      budgets,
    },
    prices: req.access.prices,
    minFreeBytes: req.access.minFreeDiskBytes,
    idleTimeoutMs: req.access.callTimeoutMs,
    ...(replay ? { replay } : {}),
    onStop: req.onStop,
  });
  // Confined with model-only (and always in a container, which has no loopback of this machine):
  // the gateway's socket and a forwarder on the step's own loopback. Otherwise its loopback port.
  const throughSocket = ownNetwork || (req.confined && req.inContainer);
  const origin = throughSocket ? `http://127.0.0.1:${GATEWAY_PORT_IN_STEP}` : gateway.origin;
  if (!origin) throw new Error('the gateway listens on no loopback port');
  const network: NetworkConfinement | undefined = throughSocket
    ? { kind: 'gateway', socket: gateway.socketPath, port: GATEWAY_PORT_IN_STEP }
    : req.confined
      ? { kind: 'open' }
      : undefined;
  return {
    endpoint: { ...real, url: clientBaseUrl(real.protocol, origin), key: gatewayTry.token, keyMissing: false },
    ...(replay ? { replayNote: replayNote(replay.length) } : {}),
    ...(network ? { network } : {}),
    networkLabel: !req.confined ? 'not-confined' : ownNetwork || req.inContainer ? 'model-only' : 'open',
    gatewayTry,
    secrets: [gatewayTry.token, ...(real.keyMissing ? [] : [real.key])],
  };
}

/** What answers a replayed try: its recording, or nothing when the recorded try called no model (it runs again as it is). */
function replayNote(calls: number): string {
  if (calls === 0) return 'the recorded try made no model call: it runs again as it is, and a model call now diverges';
  return `answered from the recording (${calls} call${calls === 1 ? '' : 's'}), no model is called`;
}

/** How a try's model calls record is named: `<role>-try-<N>` and this. */
export const CALLS_SUFFIX = '.calls.jsonl';

/** `<role>-try-<N>.calls.jsonl` beside `<role>-try-<N>.log`. */
export function callsFileBeside(logFile: string): string {
  return logFile.replace(/\.log$/, '') + CALLS_SUFFIX;
}

/** The environment without the stored API keys and without any variable holding one of `secrets`. */
export function withoutKeys(env: Readonly<Record<string, string>>, secrets: readonly string[]): Record<string, string> {
  const names = new Set(KNOWN_API_KEYS.map((k) => k.name));
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => !names.has(name) && !secrets.includes(value)));
}

export function describeNetwork(label: ModelRoute['networkLabel']): string {
  switch (label) {
    case 'model-only':
      return "none of its own: only the model, through SWE-CI's gateway";
    case 'open':
      return 'open (sweci.agents.network): this machine and every host it reaches';
    case 'none':
      return 'none (no endpoint to reach)';
    case 'not-confined':
      return "not confined: this machine's network";
  }
}

/**
 * The try's result with what the wire said: the wire's usage (the agent's own kept beside it),
 * and the reason the gateway stopped it, which is no cancel by the user.
 */
export function withWire(
  result: AgentRunResult,
  wire: TryWireSummary | undefined,
  route: ModelRoute,
  stopped: string | undefined,
  userCancelled: boolean,
): AgentRunResult {
  const out: AgentRunResult = { ...result, network: route.networkLabel };
  if (stopped !== undefined && !userCancelled) out.cancelled = false;
  if (!wire) return out;
  const u = wire.usage;
  out.wire = wire;
  if (result.usage) out.agentUsage = result.usage;
  out.usage = {
    inputTokens: u.input,
    outputTokens: u.output,
    cachedTokens: u.cached,
    reasoningTokens: u.reasoning,
    // Cost only when every call that used tokens had a price: otherwise it is unknown, not a part.
    ...(wire.unpricedCalls === 0 && wire.modelCalls > 0 ? { costUsd: wire.costUsd } : {}),
  };
  return out;
}

/** The log's last lines for a try through the gateway: what its model calls were, read at the wire. */
export function wireFooter(w: TryWireSummary, stopped: string | undefined): string {
  const u = w.usage;
  const calls = `${w.modelCalls} model call${w.modelCalls === 1 ? '' : 's'}${w.calls > w.modelCalls ? ` (+${w.calls - w.modelCalls} other)` : ''}`;
  const cost = w.modelCalls === 0 ? '' : w.unpricedCalls === 0 ? `, $${w.costUsd.toFixed(4)}` : ', cost unknown (no price for the model: sweci.agents.prices)';
  return [
    `# wire:    ${calls}, ${u.input} input (${u.cached} cached) and ${u.output} output tokens${cost}`,
    ...(stopped ? [`# stopped: ${stopped}`] : w.failure ? [`# failed:  ${w.failure}`] : []),
    '',
  ].join('\n');
}
