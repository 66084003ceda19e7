// What the loop is given (roles, runtime, pytest settings) and what it tells its listeners.
// Views follow a loop only through these events and the files it writes.
import type { AgentDriver, AgentRole, AgentSettings } from '../agents/agent-driver';
import type { PytestSettings } from '../pytest/pytest-settings';
import type { Runtime } from '../runtime/runtime';
import type { AgentRuntimes } from '../agents/cli-driver';
import type { IterationRecord, RoleKind } from './iteration-record';
import type { TaskFolder } from '../workspace/task-folder';
import type { TraceParent } from '../telemetry/tracing';

export type LoopStep = AgentRole | 'pytest';

export type LoopStopReason =
  /** gap 0: every test the target passes passes. */
  | 'solved'
  | 'max-iterations'
  /** The requested number of iterations (or the requested step) is done; the run can go on. */
  | 'paused'
  | 'cancelled'
  /** A step failed every try; the iteration is kept pending (resume retries that step). */
  | 'failed'
  /** The gateway stopped a step at a bound (calls, tokens, cost); the iteration is kept pending (resume tries that step again). */
  | 'budget-exhausted';

export type LoopEvent =
  | {
      type: 'step-started';
      run: string;
      iteration: number;
      step: LoopStep;
      /** 1-based try of this step (humans: 1, or more after an invalid requirement.xml). */
      try: number;
      kind?: RoleKind;
      agent?: string;
      logFile?: string;
    }
  | { type: 'agent-output'; run: string; iteration: number; role: AgentRole; try: number; chunk: string; stream: 'stdout' | 'stderr' }
  | { type: 'pytest-output'; run: string; iteration: number; chunk: string }
  | {
      type: 'step-finished';
      run: string;
      iteration: number;
      step: LoopStep;
      try: number;
      ok: boolean;
      durationMs: number;
      /** Why a try failed, why pytest did not run, or the warnings on the requirement an Architect wrote. */
      message?: string;
      logFile?: string;
    }
  /** `tamperedBy`: which role changed each of `record.tampered` (a loop's iterations; not the human history). */
  | { type: 'iteration-recorded'; run: string; record: IterationRecord; tamperedBy?: Partial<Record<AgentRole, string[]>> }
  | { type: 'loop-finished'; run: string; reason: LoopStopReason; iterations: number; lastGap?: number; error?: string };

export type LoopEventListener = (event: LoopEvent) => void;

/** Who plays a role. */
export interface RoleSetup {
  settings: AgentSettings;
  /** Required for agent settings; ignored for `{ kind: 'human' }` (the loop calls `humanStep`). */
  driver?: AgentDriver;
  /** Secrets for the agent's environment (API keys from secret storage); never written anywhere. */
  secretEnv?: Record<string, string>;
}

export interface HumanStepRequest {
  role: AgentRole;
  run: string;
  iteration: number;
  task: TaskFolder;
  /** Paths the human works with: the architect writes `requirementFile`, the programmer edits `codeDir`. */
  appDir: string;
  codeDir: string;
  nonPassedDir: string;
  summaryFile: string;
  requirementFile: string;
  /** After an invalid submit of requirement.xml: what was wrong (the human is asked again). */
  problems?: string[];
  /** Fires when the loop is cancelled: reject with an AbortError. */
  signal: AbortSignal;
}

/**
 * Waits for the user to play a role: resolves when they submit, rejects (AbortError) when
 * they cancel. The loop measures the wall time until it resolves.
 */
export type HumanStep = (request: HumanStepRequest) => Promise<void>;

export interface LoopOptions {
  task: TaskFolder;
  run: string;
  roles: Record<AgentRole, RoleSetup>;
  /** Where pytest runs. */
  runtime: Runtime;
  /** Where agents run (runIn host / container); default: this machine. */
  agentRuntimes?: AgentRuntimes;
  pytest: PytestSettings;
  /** Files larger than this many MiB are flagged and left out of the iteration's commit (sweci.integrity.maxFileMb; default 50; 0: no limit). */
  maxFileMb?: number;
  /** New or changed files of one iteration together, in MiB: past it the largest are flagged and left out (sweci.integrity.maxIterationMb; default 100; 0: no limit). */
  maxIterationMb?: number;
  humanStep?: HumanStep;
  signal?: AbortSignal;
  onEvent?: LoopEventListener;
  /** Stop after this many completed iterations in this call (the run can be resumed later). */
  iterations?: number;
  /**
   * Stop once this step of the next iteration is done (one step at a time); the iteration stays
   * pending and the next call continues it.
   */
  stopAfterStep?: AgentRole;
  /** The span this run's spans go under (an experiment's), when telemetry is on. */
  traceParent?: TraceParent;
}
