// One interface for every way a role gets played: a CLI agent preset, a custom command,
// or a human. The loop only ever talks to this.
import type { Confinement, Isolation } from '../runtime/runtime';
import type { Budget } from '../gateway/budget';
import type { TryWireSummary } from '../gateway/try-summary';
import type { AgentPresetId } from './presets';
import type { AgentUsage } from './reading/agent-usage';

export type AgentRole = 'architect' | 'programmer';

export { AGENT_PRESETS, type AgentPresetId } from './presets';
export type { AgentUsage } from './reading/agent-usage';

interface AgentSettingsBase {
  /** Model name handed to the agent (its --model flag or equivalent); empty: the agent's default. */
  model?: string;
  /**
   * The model endpoint (sweci.<role>.baseUrl, else sweci.agents.baseUrl): each preset writes it
   * into its CLI's own configuration in the agent's private home. Unset: the CLI's own login.
   */
  baseUrl?: string;
  /** The setting `baseUrl` was read from, without `sweci.` (`<role>.baseUrl` or `agents.baseUrl`): errors name it. Unset: the shared one. */
  baseUrlFrom?: string;
  /** Extra arguments appended to the agent's command line. */
  extraArgs?: string[];
  /** Extra environment for the agent (API keys come from secret storage, not from here). */
  env?: Record<string, string>;
  /**
   * API keys (variable names) of the stored or given keys this role's agent may have besides its
   * preset's own (sweci.<role>.apiKeys): given only where it reaches its model itself (key-rule.ts).
   */
  apiKeys?: string[];
  /** Per try; default 3600 s. */
  timeoutSec?: number;
  /** Attempts before the step fails; default 10. */
  maxTries?: number;
  /** A file holding our own prompt template for this role, replacing the built-in one. */
  promptTemplateFile?: string;
  /**
   * Where the agent runs: on this machine (default), or in a container from the task's image
   * (or sweci.docker.agentImage) that sees only app/ at /app.
   */
  runIn?: AgentPlacement;
  /**
   * Architect only, SWE-bench-style tasks: the prompt also holds the instance's problem_statement.
   * Off by default, so a run stays SWE-CI's (the Architect works from the failing tests alone).
   */
  problemStatement?: boolean;
}

export type AgentPlacement = 'host' | 'container';

export type AgentSettings =
  | (AgentSettingsBase & {
      kind: 'preset';
      preset: AgentPresetId;
      /** The agent's executable (a name on PATH or a path); default the preset's, e.g. `claude`. */
      executable?: string;
    })
  /** `command` is an argv template: words split like a shell would, no shell runs it. Placeholders: {promptFile} {model} {cwd} {role}. */
  | (AgentSettingsBase & {
      kind: 'custom';
      command: string;
      promptVia?: 'stdin' | 'file';
    })
  | { kind: 'human' };

/**
 * What an agent's try could reach: only its model through the gateway (`model-only`), the network
 * (`open`), nothing (`none`: a custom agent with no endpoint), or it was not confined at all.
 */
export type AgentNetwork = 'model-only' | 'open' | 'none' | 'not-confined';

export interface AgentRunRequest {
  role: AgentRole;
  /** The prompt, already rendered with this run's real paths. */
  prompt: string;
  /** Where the prompt was written (agents that take a file read it here). */
  promptFile: string;
  /** The agent's working directory: the task's app/ folder (code/ below it). */
  cwd: string;
  /** Environment added for the agent (sweci.<role>.env). Never logged. */
  env: Record<string, string>;
  /**
   * The harness's API keys (stored, or from the CLI's environment; the endpoint's as
   * SWECI_API_KEY). Never logged; the agent gets one only as key-rule.ts says.
   */
  keys?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Live output for the output channel. */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** The full stdout+stderr of this try is written here. */
  logFile: string;
  /** What a sandboxed agent must not see (see runtime/task-confinement.ts). */
  confine?: Confinement;
  /**
   * An empty folder for the agent's private home (HOME, XDG folders, TMPDIR): its preset's
   * configuration is written there. Unset: the agent keeps the home it inherits.
   */
  homeDir?: string;
  /** The try's model calls, one JSON line each (`<role>-try-<N>.calls.jsonl`); default: beside `logFile`. */
  callsFile?: string;
  /** Which try of which iteration (a replay answers from that try's recording). */
  at?: { iteration: number; try: number };
  /** What all tries of the step share: tokens (sweci.agents.maxTokensPerStep), bytes of calls records (sweci.agents.maxCallsBytesPerTry). */
  stepBudget?: Budget;
  /**
   * Paths below `cwd` the agent sees but cannot change (what the harness or the other role
   * wrote: non-passed/, the Programmer's requirement.xml). Missing ones are skipped.
   */
  readOnly?: readonly string[];
}

export interface AgentRunResult {
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  usage?: AgentUsage;
  /** The command line that ran (secrets never appear in it). */
  command: string;
  /** The CLI's own output says the try failed (an API error, an error result), whatever its exit code. */
  reportedError?: string;
  /** A try that failed with no reported error: its output's line that most likely says why (masked). */
  lastWords?: string;
  /** What the agent was allowed to do (presets), e.g. "every action accepted (confined)". */
  permissions?: string;
  /** The try ran into one of its limits (sweci.limits.*), e.g. "memory limit 8 GiB reached (sweci.limits.memoryMb)". */
  limitReached?: string;
  logFile: string;
  /**
   * What the gateway saw of the try's model calls, when it went through the gateway: `usage` is
   * then the wire's, and the agent's own figures are in `agentUsage`.
   */
  wire?: TryWireSummary;
  /** The agent's own usage report, when `usage` is the wire's. */
  agentUsage?: AgentUsage;
  /** What the try could reach. */
  network?: AgentNetwork;
}

export interface AgentDriver {
  readonly label: string;
  /** How the agent is kept from the task's records and oracle (recorded on every iteration). */
  readonly isolation: Isolation;
  /** Tokens all tries of one step may spend through the gateway (sweci.agents.maxTokensPerStep); 0 or absent: no bound. */
  readonly maxTokensPerStep?: number;
  /** Bytes one try's calls record may take, and all tries of one step together (sweci.agents.maxCallsBytesPerTry); 0 or absent: no bound. */
  readonly maxCallsBytesPerTry?: number;
  /** The free-space floor a step and its records keep to (sweci.agents.minFreeDiskMb), in bytes; absent: the default. */
  readonly minFreeDiskBytes?: number;
  /** Its model calls are answered from a recording (a replay): its endpoint is never asked. */
  readonly replays?: boolean;
  run(req: AgentRunRequest): Promise<AgentRunResult>;
  /**
   * Throws the error a try would give when the agent's program is not there, without running it:
   * the loop asks every role before its first step, so a missing Programmer is found before the
   * Architect is paid for. `searchPath` is the PATH the agent would get.
   */
  assertStartable?(role: AgentRole, cwd: string, searchPath: string): Promise<void>;
}
