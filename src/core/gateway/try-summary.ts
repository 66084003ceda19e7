// What a try's model calls say about it, read at the wire whatever the CLI printed or exited: the
// calls, the usage summed, and why the try failed when its calls did. A stop the gateway itself
// made (a spent budget, a hang, a divergence) is the reason; otherwise the last model call decides:
// its error after retries, or an empty answer; with no model call at all, that.
import { DISK_NEARLY_FULL } from '../util/free-space';
import { addUsage, NO_USAGE, type WireUsage } from './wire-usage';

/** What the summary needs of one call. */
export interface CallOutcome {
  call: number;
  kind: 'model' | 'other';
  method: string;
  path: string;
  /** 2xx, whole, no error event. */
  ok: boolean;
  /** ok, with neither text nor a tool call. */
  empty: boolean;
  /** Why it failed, said for a person ("HTTP 401 from <url>: <message>"). */
  failure?: string;
  usage: WireUsage;
  costUsd?: number;
}

export interface TryWireSummary {
  /** Every request the try made through the gateway, model calls and others (refused ones included). */
  calls: number;
  modelCalls: number;
  /** Model calls answered 2xx, whole. */
  succeeded: number;
  usage: WireUsage;
  /** Dollars over the calls whose model has a price; `unpricedCalls` used tokens and had none. */
  costUsd: number;
  unpricedCalls: number;
  failure?: string;
  /** The gateway stopped the try because a bound was spent (`failure` says which). */
  budgetExhausted?: boolean;
  /** The gateway stopped the try because its record's disk is nearly full (`failure` says where). */
  diskFull?: boolean;
  /** A line of the calls file that could not be written. */
  recordError?: string;
}

/** How a stop for a spent bound begins: "budget exhausted: calls per try (200)". */
export const BUDGET_EXHAUSTED = 'budget exhausted';

export function summarize(outcomes: readonly CallOutcome[], stopReason: string | undefined): TryWireSummary {
  const sorted = [...outcomes].sort((a, b) => a.call - b.call);
  const model = sorted.filter((o) => o.kind === 'model');
  let usage: WireUsage = { ...NO_USAGE };
  let costUsd = 0;
  let unpricedCalls = 0;
  for (const o of model) {
    usage = addUsage(usage, o.usage);
    if (o.costUsd !== undefined) costUsd += o.costUsd;
    else if (o.usage.input + o.usage.output > 0) unpricedCalls++;
  }
  const succeeded = model.filter((o) => o.ok).length;
  const failure = stopReason ?? wireFailure(sorted, model, succeeded);
  const exhausted = stopReason?.startsWith(BUDGET_EXHAUSTED) === true;
  const diskFull = stopReason?.startsWith(DISK_NEARLY_FULL) === true;
  return {
    calls: sorted.length,
    modelCalls: model.length,
    succeeded,
    usage,
    costUsd,
    unpricedCalls,
    ...(failure ? { failure } : {}),
    ...(exhausted ? { budgetExhausted: true } : {}),
    ...(diskFull ? { diskFull: true } : {}),
  };
}

function wireFailure(all: readonly CallOutcome[], model: readonly CallOutcome[], succeeded: number): string | undefined {
  if (model.length === 0) {
    const others = all.map((o) => `${o.method} ${o.path}`);
    return others.length === 0
      ? 'the agent made no model call'
      : `the agent made no model call (only ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''})`;
  }
  const last = model[model.length - 1];
  if (!last.ok) {
    const why = last.failure ?? 'the call failed';
    return succeeded === 0 ? `no model call succeeded: ${why}` : why;
  }
  if (last.empty) return "the model's last answer was empty";
  return undefined;
}
