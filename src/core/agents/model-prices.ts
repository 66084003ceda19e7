// What a model's tokens cost, as the user priced them (sweci.agents.prices): dollars per million
// input, cached input and output tokens, per model name as the model calls carry it. One
// definition of cost for every preset and custom agent; a model without a price costs
// "unknown", never a guess from some built-in table.
import { UserError } from '../util/errors';
import type { SettingLabel, SettingReader } from '../util/setting-reader';

/** Dollars per million tokens. */
export interface ModelPrice {
  input: number;
  /** Cached input tokens (cache reads); default: the input price. */
  cachedInput: number;
  output: number;
}

export type ModelPrices = Readonly<Record<string, ModelPrice>>;

/**
 * Tokens as the harness counts them: `input` is everything the model read, cached tokens
 * included (the convention of every usage reader here), `cached` the part of it read from cache.
 */
export interface PricedUsage {
  input: number;
  cached: number;
  output: number;
}

const FIELDS = ['input', 'cachedInput', 'output'] as const;

export function readModelPrices(read: SettingReader, label: SettingLabel, key = 'agents.prices'): ModelPrices {
  const value = read(key);
  if (value === undefined || value === null) return {};
  const example = '{"my-model": {"input": 3, "cachedInput": 0.3, "output": 15}}';
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
    prices[model] = { input, cachedInput: number('cachedInput', input), output: number('output') };
  }
  return prices;
}

/** The cost in dollars, or undefined when the model has no price. */
export function costOf(usage: PricedUsage, model: string | undefined, prices: ModelPrices): number | undefined {
  const price = model !== undefined && Object.hasOwn(prices, model) ? prices[model] : undefined;
  if (!price) return undefined;
  const cached = Math.min(usage.cached, usage.input);
  return ((usage.input - cached) * price.input + cached * price.cachedInput + usage.output * price.output) / 1e6;
}
