// Cost from the wire's usage and the user's prices: dollars per million tokens, per model. A model
// without a price has no cost ("unknown"), never a guess. Anthropic's cache writes are counted in
// `input` and priced as input (they cost 1.25× that): a cost is a slight underestimate there.
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
