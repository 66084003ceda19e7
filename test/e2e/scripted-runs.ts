// The runs several scenarios show: the scripted agents' run and the developers' history replayed,
// recorded through the core loop as the extension's commands do. Recorded once per tier and
// copied to each scenario that only shows them (recordedDemoTask).
import * as path from 'node:path';
import type { AgentSettings } from '../../src/core/agents/agent-driver';
import { replayHumanHistory } from '../../src/core/history/replay-history';
import type { RoleSetup } from '../../src/core/loop/loop-types';
import { startRun } from '../../src/core/loop/run-loop';
import { LocalRuntime } from '../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../src/core/runtime/sandbox';
import { taskFolder } from '../../src/core/workspace/task-folder';
import { recordedDemoTask, type PreparedTask } from './demo-task';

const agents = path.resolve(__dirname, '../../../test/fixtures/agents');

export const SCRIPTED_PYTEST = { python: 'python3', timeoutMs: 120_000, format: 'junit' as const };

/** A role played by one of the scripted agents (test/fixtures/agents). */
export function scriptedRole(script: string, env: Record<string, string> = {}): RoleSetup {
  const settings: AgentSettings = { kind: 'custom', command: `python3 ${path.join(agents, script)}`, promptVia: 'stdin', timeoutSec: 120, maxTries: 2, env };
  return { settings };
}

/** Confined as users run it (bubblewrap when it works here). */
export async function scriptedRuntime(task: PreparedTask): Promise<LocalRuntime> {
  return new LocalRuntime({ bwrap: await findBubblewrap(), readable: task.sandboxReadable });
}

/**
 * The demo task in the folder `name` with the run `scripted-agents` of `iterations` iterations,
 * recorded once per tier for every scenario that asks for as many.
 */
export function scriptedAgentsTask(name: string, iterations: number): Promise<PreparedTask> {
  return recordedDemoTask(name, `scripted-agents-${iterations}`, async (task) => {
    await startRun({
      task: taskFolder(task.taskDir),
      run: 'scripted-agents',
      roles: { architect: scriptedRole('architect.py'), programmer: scriptedRole('programmer.py', task.programmerEnv) },
      runtime: await scriptedRuntime(task),
      pytest: SCRIPTED_PYTEST,
      iterations,
    });
  });
}

/**
 * The demo task in the folder `name` with the run `scripted-agents` (four iterations) and then
 * the developers' history replayed.
 */
export function scriptedAndHumanTask(name: string): Promise<PreparedTask> {
  return recordedDemoTask(name, 'scripted-agents-4-then-human', async (task) => {
    const runtime = await scriptedRuntime(task);
    await startRun({
      task: taskFolder(task.taskDir),
      run: 'scripted-agents',
      roles: { architect: scriptedRole('architect.py'), programmer: scriptedRole('programmer.py', task.programmerEnv) },
      runtime,
      pytest: SCRIPTED_PYTEST,
      iterations: 4,
    });
    await replayHumanHistory({ ...SCRIPTED_PYTEST, task: taskFolder(task.taskDir), runtime });
  });
}
