// Settings → what a run is given: the one place the editor's loop commands, its human-history
// replay, its sequence runs and the CLI's `sweci run` turn the user's settings into roles,
// where pytest and the agents run, pytest's options and the integrity bounds. The settings are
// read by one parser for both (a reader over VS Code's sweci.* or over the CLI's flags and file).
import type { AgentRole } from '../agents/agent-driver';
import { readAgentSettings } from '../agents/agent-settings';
import { readModelAccess, type ModelAccess, type ReplaySource } from '../agents/model-access';
import type { Budget } from '../gateway/budget';
import { readPytestSettings, type PytestSettings } from '../pytest/pytest-settings';
import type { Runtime } from '../runtime/runtime';
import { readRuntimeSettings, type RuntimeSettings } from '../runtime/runtime-settings';
import type { TaskEnvironment } from '../runtime/task-environment';
import { settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import { readIntegritySettings, type IntegritySettings } from './integrity-settings';
import { readLoopSettings, type LoopSettings } from './loop-settings';
import type { LoopOptions } from './loop-types';
import { agentRuntimesOf, setUpRoles, type AgentChoices } from './role-setup';
import { readTelemetrySettings, type TelemetrySettings } from '../telemetry/telemetry-settings';
import { startTracing } from '../telemetry/tracing';

/** Everything a run reads from the settings; a role may be `human` (the editor asks the user). */
export interface RunSettings {
  agents: AgentChoices;
  /** `python` is this machine's interpreter; a container's comes from `runtime`. */
  pytest: PytestSettings;
  runtime: RuntimeSettings;
  /** How agents reach their model (sweci.agents.network, the gateway's bounds, prices). */
  model: ModelAccess;
  loop: LoopSettings;
  integrity: IntegritySettings;
  /** OpenTelemetry: where spans go (sweci.telemetry.*, OTEL_* variables); off without an endpoint. */
  telemetry: TelemetrySettings;
}

/** The one parser of a run's settings; its errors name the setting (or flag) through `label`. */
export function readRunSettings(read: SettingReader, label: SettingLabel = settingName): RunSettings {
  return {
    agents: { architect: readAgentSettings('architect', read, label), programmer: readAgentSettings('programmer', read, label) },
    pytest: readPytestSettings(read, label),
    runtime: readRuntimeSettings(read, label),
    model: readModelAccess(read, label),
    loop: readLoopSettings(read, label),
    integrity: readIntegritySettings(read, label),
    telemetry: readTelemetrySettings(read, process.env, label),
  };
}

/** What one call adds to the settings: secrets, the roles the user plays, bounds and a recording. */
export interface RunCall {
  /** API keys for the agents (never written anywhere). */
  secretEnv: Record<string, string>;
  /** Roles the user plays in this call, whatever the settings say. */
  human?: readonly AgentRole[];
  /** Cost budgets the run's tries share (a task's, an experiment's). */
  budgets?: readonly Budget[];
  /** Answer every model call from this recording instead of the model. */
  replay?: ReplaySource;
}

/** What the loop (and creating its run) is given, besides the task, the run and the call's listeners. */
export type LoopRequest = Required<Pick<LoopOptions, 'roles' | 'runtime' | 'agentRuntimes' | 'pytest' | 'maxFileMb' | 'maxIterationMb'>> & {
  /** Iterations a run created by this call may take. */
  maxIterations: number;
};

/** The environment a request runs in: pytest's runtime and interpreter, the agents' runtimes. */
export type RequestEnvironment = Pick<TaskEnvironment, 'tests' | 'python' | 'host' | 'agents'>;

export function loopRequest(settings: RunSettings, env: RequestEnvironment, call: RunCall): LoopRequest {
  // Telemetry starts with the first run that asks for it, and stays for the process.
  startTracing(settings.telemetry);
  const model: ModelAccess = {
    ...settings.model,
    ...(call.budgets && call.budgets.length > 0 ? { budgets: call.budgets } : {}),
    ...(call.replay ? { replay: call.replay } : {}),
  };
  return {
    roles: setUpRoles(settings.agents, env, call.secretEnv, call.human ?? [], model),
    runtime: env.tests,
    agentRuntimes: agentRuntimesOf(env, model),
    pytest: { ...settings.pytest, python: env.python },
    maxFileMb: settings.integrity.maxFileMb,
    maxIterationMb: settings.integrity.maxIterationMb,
    maxIterations: settings.loop.maxIterations,
  };
}

/** What the human-history replay is given besides the task and the call's listeners. */
export type HistoryRequest = PytestSettings & {
  runtime: Runtime;
  /** Commits after the base to replay: N evenly spaced, or every one. */
  count: number | 'all';
};

/** The replay runs pytest like the loop, with its own time limit per commit. */
export function historyRequest(settings: Pick<RunSettings, 'pytest' | 'loop'>, env: Pick<TaskEnvironment, 'tests' | 'python'>): HistoryRequest {
  return {
    ...settings.pytest,
    runtime: env.tests,
    python: env.python,
    timeoutMs: settings.loop.historyTimeoutMs,
    count: settings.loop.historyCommits,
  };
}
