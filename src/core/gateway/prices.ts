// Cost from the wire's usage and the user's prices (sweci.agents.prices): dollars per million
// tokens, per model as the calls name it; one definition for every preset and custom agent. A model
// without a price has no cost ("unknown"), never a guess. Anthropic's cache writes are counted in
// `input` and priced as input (they cost 1.25× that): a cost is a slight underestimate there.
import { UserError } from '../util/errors';
import type { SettingLabel, SettingReader } from '../util/setting-reader';
import type { WireUsage } from './wire-usage';

export interface ModelPrice {
  /** $ per million uncached input tokens. */
  input: number;
  /** $ per million cached input tokens; the input price when not given. */
  cached?: number;
  /** $ per million output tokens (reasoning included). */
  output: number;
}

/** Model name → its price. */
export type ModelPrices = Readonly<Record<string, ModelPrice>>;

/** The cost of one call in dollars, or undefined when its model has no price. */
export function costOf(prices: ModelPrices | undefined, model: string | undefined, usage: WireUsage): number | undefined {
  const price = model !== undefined && prices && Object.prototype.hasOwnProperty.call(prices, model) ? prices[model] : undefined;
  if (!price) return undefined;
  const cached = Math.min(usage.cached, usage.input);
  return ((usage.input - cached) * price.input + cached * (price.cached ?? price.input) + usage.output * price.output) / 1_000_000;
}

const FIELDS = ['input', 'cached', 'output'] as const;

/** sweci.agents.prices, checked: every model's input and output price, and its cached price or the input price. */
export function readModelPrices(read: SettingReader, label: SettingLabel, key = 'agents.prices'): ModelPrices {
  const value = read(key);
  if (value === undefined || value === null) return {};
  const example = '{"my-model": {"input": 3, "cached": 0.3, "output": 15}}';
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new UserError(`${label(key)} must map model names to prices in dollars per million tokens, e.g. ${example}.`, { setting: key });
  }
  const prices: Record<string, ModelPrice> = {};
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new UserError(`${label(key)}: the price of "${model}" must be an object such as {"input": 3, "output": 15}.`, { setting: key });
    }
    const e = entry as Record<string, unknown>;
    for (const name of Object.keys(e)) {
      if (!(FIELDS as readonly string[]).includes(name)) {
        throw new UserError(`${label(key)}: the price of "${model}" has "${name}"; the fields are ${FIELDS.join(', ')} (dollars per million tokens).`, {
          setting: key,
        });
      }
    }
    const number = (name: (typeof FIELDS)[number], fallback?: number): number => {
      const v = e[name] ?? fallback;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        throw new UserError(`${label(key)}: "${model}".${name} must be a number of dollars per million tokens (0 or more), not ${JSON.stringify(v)}.`, {
          setting: key,
        });
      }
      return v;
    };
    const input = number('input');
    prices[model] = { input, cached: number('cached', input), output: number('output') };
  }
  return prices;
}
