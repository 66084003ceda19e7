// Bounds on what a try may spend. A try has its own (calls, tokens, bytes of its calls record); a
// Budget is shared by the tries that should draw from one count (a step's tries, a task's steps,
// an experiment's tasks): the caller makes one per scope and hands it to every try in it. Record
// bytes are bounded because the harness writes the record outside every limit of the step: an
// agent's calls must not be able to fill the disk. A call is let through while no
// bound is spent; the call that crosses a bound finishes (its size is known only afterwards) and
// the next one is refused.
import { UserError } from '../util/errors';
import { tokensOf, type WireUsage } from './wire-usage';

/** A step ended because a bound of the gateway was spent: the run stops (state budget-exhausted) rather than trying again. */
export class BudgetExhaustedError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetExhaustedError';
  }
}

export interface TryBounds {
  /** Calls this try may forward (model calls and others alike: a CLI looping on an error is one too). */
  maxCalls?: number;
  /** Tokens (input + output) this try may spend. */
  maxTokens?: number;
  /** Bytes this try's calls record may take (sweci.agents.maxCallsBytesPerTry): the line that crosses it is written, the next call refused. */
  maxRecordBytes?: number;
  /** Shared budgets this try also draws from. */
  budgets?: readonly Budget[];
}

export interface BudgetLimits {
  maxTokens?: number;
  maxCostUsd?: number;
  /** Bytes the calls records of the tries drawing from it may take together. */
  maxRecordBytes?: number;
}

export class Budget {
  /** Tokens (input + output) spent so far. */
  tokens = 0;
  /** Dollars spent so far, over the calls whose model has a price. */
  costUsd = 0;
  /** Calls whose cost is unknown (no price for their model): a cost bound cannot see them. */
  unpricedCalls = 0;
  /** Bytes of calls records written so far. */
  recordBytes = 0;

  /** `name` says which bound it is in a reason: "task", "experiment", "step". */
  constructor(
    readonly name: string,
    readonly limits: BudgetLimits,
  ) {}

  charge(usage: WireUsage, costUsd: number | undefined): void {
    this.tokens += tokensOf(usage);
    if (costUsd === undefined) this.unpricedCalls++;
    else this.costUsd += costUsd;
  }

  /** Which of its bounds is spent ("task tokens (1000000)"), or undefined. */
  spent(): string | undefined {
    const { maxTokens, maxCostUsd, maxRecordBytes } = this.limits;
    if (maxTokens !== undefined && this.tokens >= maxTokens) return `${this.name} tokens (${maxTokens})`;
    if (maxCostUsd !== undefined && this.costUsd >= maxCostUsd) return `${this.name} cost ($${maxCostUsd})`;
    if (maxRecordBytes !== undefined && this.recordBytes >= maxRecordBytes) return `${this.name} calls records (${maxRecordBytes} bytes)`;
    return undefined;
  }
}

/** Which bound is spent for a try that has made `calls` calls, spent `tokens` and recorded `recordBytes`, or undefined. */
export function spentBound(bounds: TryBounds, calls: number, tokens: number, recordBytes = 0): string | undefined {
  if (bounds.maxCalls !== undefined && calls >= bounds.maxCalls) return `calls per try (${bounds.maxCalls})`;
  if (bounds.maxTokens !== undefined && tokens >= bounds.maxTokens) return `tokens per try (${bounds.maxTokens})`;
  if (bounds.maxRecordBytes !== undefined && recordBytes >= bounds.maxRecordBytes) return `calls record per try (${bounds.maxRecordBytes} bytes)`;
  for (const b of bounds.budgets ?? []) {
    const spent = b.spent();
    if (spent) return spent;
  }
  return undefined;
}
