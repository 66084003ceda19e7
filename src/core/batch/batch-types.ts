// What a batch run is given and what it tells its display.
import type { CostBounds } from './cost-budgets';
import type { Budget } from '../gateway/budget';
import type { LoopEvent } from '../loop/loop-types';
import type { RunSettings } from '../loop/loop-request';
import type { TaskStatus } from '../records/task-status-file';
import type { TaskFolder } from '../workspace/task-folder';
import type { TraceParent } from '../telemetry/tracing';

export interface BatchSettings {
  experimentDir: string;
  /** The run every task records into. */
  run: string;
  /** Agents, pytest, runtime, model access, loop and integrity, as the settings say (no role `human`). */
  settings: RunSettings;
  /** API keys for the agents: reach them, masked in what is archived. */
  secretEnv: Record<string, string>;
  /** Dollars a task's run, and the experiment's run, may spend (--max-cost-per-task, --max-cost). */
  cost?: CostBounds;
  /** Answer every model call from this experiment's recording of the same task (--replay-from). */
  replayFrom?: string;
  /** The experiment's cost budget, shared by this process's workers (made by runBatch from `cost.maxCost`). */
  experimentBudget?: Budget;
  /** The experiment's span, which each task's run goes under (made by runBatch when telemetry is on). */
  traceParent?: TraceParent;
  /** Also replay each task's human history (run `human-history`), from its cache when it has one. */
  humanHistory: boolean;
  /** Remove a task's image once the task is finished, when SWE-CI loaded it and nothing else holds it (--evict-images). */
  evictImages?: boolean;
  signal: AbortSignal;
  onEvent?: (event: BatchEvent) => void;
  /** Runs after checkout, before the task's loop starts or continues (a sequence's memory goes in here). */
  beforeLoop?: (task: TaskFolder) => Promise<void>;
}

export type BatchEvent =
  /** A task's state changed (also its iteration count, gap and a(c) after each iteration). */
  | { type: 'task-status'; status: TaskStatus }
  /** What a running task is doing now, e.g. "iteration 3 · programmer". */
  | { type: 'task-activity'; task: string; activity: string }
  | { type: 'loop-event'; task: string; event: LoopEvent };
