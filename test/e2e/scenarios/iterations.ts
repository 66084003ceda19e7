// The Iterations view and the status bar after a scripted agent run and the human-history
// replay (both recorded through the core loop, as the extension's commands do).
import * as path from 'node:path';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { replayHumanHistory } from '../../../src/core/history/replay-history';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

const agents = path.resolve(__dirname, '../../../../test/fixtures/agents');

function scripted(script: string, env: Record<string, string> = {}): RoleSetup {
  const settings: AgentSettings = { kind: 'custom', command: `python3 ${path.join(agents, script)}`, promptVia: 'stdin', timeoutSec: 120, maxTries: 2, env };
  return { settings };
}

export async function iterationsScenario(): Promise<string> {
  const task = await prepareDemoTask('iterations');
  // Confined as users run it (bubblewrap when it works here).
  const runtime = new LocalRuntime({ bwrap: await findBubblewrap(), readable: task.sandboxReadable });
  const pytest = { python: 'python3', timeoutMs: 120_000, format: 'junit' as const };
  const env = task.programmerEnv;
  await startRun({
    task: taskFolder(task.taskDir),
    run: 'scripted-agents',
    roles: { architect: scripted('architect.py'), programmer: scripted('programmer.py', env) },
    runtime,
    pytest,
    iterations: 4,
  });
  await replayHumanHistory({ ...pytest, task: taskFolder(task.taskDir), runtime });

  return withWorkbench({ folder: task.taskDir, name: 'iterations', viewport: { width: 1400, height: 860 } }, async (page, wb) => {
    await wb.openSweciView();
    // Give the Iterations view the room: fold the two views above it.
    await wb.foldViews('Task', 'Non-Passed Tests');
    await wb.widenSideBar(700);
    const runRow = await wb.waitForTreeRow('scripted-agents');
    await runRow.click();
    const latest = await wb.waitForTreeRow(/#4.*a\(c\)/);
    // A click opens the iteration view; the arrow key (focus stays in the tree) lists its files.
    await latest.click();
    await page.keyboard.press('ArrowRight');
    await wb.waitForTreeRow('requirement.xml changes');
    await (await wb.waitForTreeRow('human-history')).click();
    await wb.waitForTreeRow(/#10.*gap 0/);
    // The status bar names task · run · iteration · a(c).
    await page
      .locator('.part.statusbar')
      .filter({ hasText: /demo__tinyinventory-0001 · scripted-agents · #4 · a\(c\)/ })
      .first()
      .waitFor({ timeout: 30_000 });
    return wb.screenshot('iterations');
  });
}
