// One request to a model endpoint before a run spends an hour on it: does anything answer at the
// URL, and does it take the key? Each protocol is asked for its model list, which every provider
// of that protocol serves and which costs no tokens.
import { UserError, errorMessage } from '../../util/errors';
import type { AgentRole, AgentSettings } from '../agent-driver';
import { presetById } from '../presets';
import { configuredEndpoint, ENDPOINT_KEY_ENV, PROTOCOL_LABEL, type Endpoint } from './endpoint';

export type EndpointVerdict =
  /** Answered 2xx with the key: reachable, key accepted. */
  | 'ok'
  /** Answered, but not with a model list (404, 405, 5xx …): reachable; the key is checked by the first step. */
  | 'answered'
  /** 401 or 403: the key was refused. */
  | 'refused'
  /** Nothing answered (refused connection, unknown host, timeout). */
  | 'unreachable';

export interface EndpointCheck {
  url: string;
  protocol: Endpoint['protocol'];
  verdict: EndpointVerdict;
  status?: number;
  /** One line for a person. */
  detail: string;
}

const TIMEOUT_MS = 10_000;

function request(e: Endpoint): { url: string; headers: Record<string, string> } {
  switch (e.protocol) {
    case 'anthropic-messages':
      return { url: `${e.url}/v1/models`, headers: { 'x-api-key': e.key, 'anthropic-version': '2023-06-01' } };
    case 'gemini':
      return { url: `${e.url}/v1beta/models`, headers: { 'x-goog-api-key': e.key } };
    case 'openai-responses':
    case 'chat-completions':
      return { url: `${e.url}/models`, headers: { authorization: `Bearer ${e.key}` } };
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return errorMessage(err);
}

export async function checkEndpoint(e: Endpoint, signal?: AbortSignal): Promise<EndpointCheck> {
  const { url, headers } = request(e);
  const base = { url: e.url, protocol: e.protocol };
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  try {
    const res = await fetch(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout, redirect: 'manual' });
    await res.body?.cancel().catch(() => undefined);
    const status = res.status;
    if (status === 401 || status === 403) {
      const why = e.keyMissing
        ? `no key is stored (store one with "SWE-CI: Set API Key…" as ${ENDPOINT_KEY_ENV}, or pass --api-key-env)`
        : 'the key was refused';
      return { ...base, verdict: 'refused', status, detail: `${url} answered HTTP ${status}: ${why}` };
    }
    if (status >= 200 && status < 300) return { ...base, verdict: 'ok', status, detail: `${url} answered HTTP ${status}: reachable, key accepted` };
    return { ...base, verdict: 'answered', status, detail: `${url} answered HTTP ${status}: reachable (the key is checked by the first step)` };
  } catch (err) {
    if (signal?.aborted) throw err;
    const why = timeout.aborted ? `no answer within ${TIMEOUT_MS / 1000} s` : causeOf(err);
    return { ...base, verdict: 'unreachable', detail: `nothing answered at ${url} (${why})` };
  }
}

/** The endpoints the roles use, one per URL, protocol and key, with the settings their URLs came from. */
export function endpointsOf(
  roles: Partial<Record<AgentRole, AgentSettings>>,
  secretEnv: Record<string, string>,
): { roles: AgentRole[]; endpoint: Endpoint; settings: string[] }[] {
  const out = new Map<string, { roles: AgentRole[]; endpoint: Endpoint; settings: string[] }>();
  for (const [role, s] of Object.entries(roles) as [AgentRole, AgentSettings | undefined][]) {
    // An agent in a container reaches the endpoint through the container's network, which this
    // process cannot stand in for: its first step is the check.
    if (!s || s.kind === 'human' || s.runIn === 'container') continue;
    // A custom agent with a base URL is given it (through the gateway) as a preset is: a dead one fails its steps the same way.
    const endpoint = configuredEndpoint(s, secretEnv[ENDPOINT_KEY_ENV]);
    if (!endpoint) continue;
    // Where the URL was read from (its own setting, or the shared one): Open Settings goes there.
    const setting = s.baseUrlFrom ?? 'agents.baseUrl';
    const id = `${endpoint.protocol} ${endpoint.url} ${endpoint.key}`;
    const seen = out.get(id);
    if (seen) {
      seen.roles.push(role);
      if (!seen.settings.includes(setting)) seen.settings.push(setting);
    } else out.set(id, { roles: [role], endpoint, settings: [setting] });
  }
  return [...out.values()];
}

/**
 * Why a role's preset cannot work through its endpoint: it needs a model named there and none is
 * set (opencode, with none, only ever asks for the model list and fails every try with
 * "Unexpected server error"). The UserError names the setting to set; undefined when nothing is missing.
 */
export function missingModel(role: AgentRole, s: AgentSettings): UserError | undefined {
  if (s.kind !== 'preset' || !s.baseUrl || s.model?.trim() || !presetById(s.preset).needsModel) return undefined;
  const setting = `${role}.model`;
  return new UserError(
    `${presetById(s.preset).label} as the ${role} needs a model when a model endpoint is set (${s.baseUrl}), and none is: it would fail every try ("Unexpected server error"). ` +
      `Set sweci.${setting} (sweci: --${role}-model) to a model the endpoint serves.`,
    { setting },
  );
}

/** Throws the first role's missingModel. */
export function assertModelsSet(roles: Partial<Record<AgentRole, AgentSettings>>): void {
  for (const [role, s] of Object.entries(roles) as [AgentRole, AgentSettings | undefined][]) {
    const missing = s && missingModel(role, s);
    if (missing) throw missing;
  }
}

/**
 * Throws a UserError naming the setting when a role's preset lacks the model its endpoint needs,
 * and naming the URL and the status when an endpoint a role uses is unreachable or refuses its key.
 */
export async function assertEndpointsAnswer(
  roles: Partial<Record<AgentRole, AgentSettings>>,
  secretEnv: Record<string, string>,
  signal?: AbortSignal,
): Promise<EndpointCheck[]> {
  assertModelsSet(roles);
  const checks: EndpointCheck[] = [];
  for (const { roles: users, endpoint, settings } of endpointsOf(roles, secretEnv)) {
    const check = await checkEndpoint(endpoint, signal);
    checks.push(check);
    if (check.verdict === 'unreachable' || check.verdict === 'refused') {
      // A role's own setting first when the roles read one URL from different settings.
      const named = [...settings].sort((a, b) => Number(a === 'agents.baseUrl') - Number(b === 'agents.baseUrl'));
      const fix = named.map((k) => `sweci.${k}`).join(' or ');
      throw new UserError(
        `The model endpoint of the ${users.join(' and ')} (${PROTOCOL_LABEL[endpoint.protocol]}) cannot be used: ${check.detail}. ` +
          (check.verdict === 'unreachable' ? `Start the model server, or fix ${fix}.` : `Store the right key, or fix ${fix}.`) +
          ' Nothing was run.',
        { setting: named[0] },
      );
    }
  }
  return checks;
}
