// The cost bounds of a headless run (--max-cost-per-task, --max-cost): a Budget per task and one
// for the experiment, which every try's gateway draws from. Each starts with what the run's
// records already hold (the cost_usd of every recorded step, failed tries included), so a bound
// holds across stops and resumes; a step in progress when the run stopped is not counted.
import { promises as fs } from 'node:fs';
import { Budget } from '../gateway/budget';
import type { ModelPrices } from '../gateway/prices';
import { readIterationRecords, type IterationRecord } from '../loop/iteration-record';
import { UserError } from '../util/errors';
import { experimentLayout } from './experiment';
import type { TaskFolder } from '../workspace/task-folder';

export interface CostBounds {
  /** Dollars one task's run may spend (--max-cost-per-task). */
  maxCostPerTask?: number;
  /** Dollars all tasks of the experiment's run may spend together (--max-cost). */
  maxCost?: number;
}

/** A cost bound is only as good as the prices it counts with: refused without any. */
export function checkCostBounds(bounds: CostBounds, prices: ModelPrices): void {
  const flag = bounds.maxCost !== undefined ? '--max-cost' : bounds.maxCostPerTask !== undefined ? '--max-cost-per-task' : undefined;
  if (flag && Object.keys(prices).length === 0) {
    throw new UserError(
      `${flag} needs prices: set sweci.agents.prices in the --config file (dollars per million tokens per model, e.g. {"sweci.agents.prices": {"my-model": {"input": 3, "output": 15}}}). Without a price a call's cost is unknown and no cost bound could see it.`,
    );
  }
}

/** Dollars the run's recorded steps spent in one task. */
export async function recordedCost(task: TaskFolder, run: string): Promise<number> {
  const records: IterationRecord[] = await readIterationRecords(task.run(run).iterationsFile).catch(() => []);
  return records.reduce((sum, r) => sum + (r.architect?.cost_usd ?? 0) + (r.programmer?.cost_usd ?? 0), 0);
}

export async function taskBudget(task: TaskFolder, run: string, maxCostPerTask: number | undefined): Promise<Budget | undefined> {
  if (maxCostPerTask === undefined) return undefined;
  const budget = new Budget('task', { maxCostUsd: maxCostPerTask });
  budget.costUsd = await recordedCost(task, run);
  return budget;
}

/** The experiment's budget, with what every task folder of the run already spent. */
export async function experimentBudget(experimentDir: string, run: string, maxCost: number | undefined): Promise<Budget | undefined> {
  if (maxCost === undefined) return undefined;
  const budget = new Budget('experiment', { maxCostUsd: maxCost });
  const layout = experimentLayout(experimentDir);
  const names = await fs.readdir(experimentDir).catch(() => [] as string[]);
  for (const name of names) budget.costUsd += await recordedCost(layout.task(name), run);
  return budget;
}
