// What a person sees of a run whose agents called their model through the gateway: the iteration
// view's Roles table says how many model calls each role made, that its tokens are the wire's,
// what the agent itself reported, that the cost is unknown without a price, and that the agent
// had no network but its model. Both roles are model-client.py (a real program the real driver
// runs) against the project's model server on this machine's loopback.
import * as path from 'node:path';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { DEFAULT_MODEL_ACCESS } from '../../../src/core/agents/model-access';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import { promptText } from '../../../scripts/stand-in-model/conversation';
import { startModelServer } from '../../../scripts/stand-in-model/model-server';
import { SAMPLE_REQUIREMENT } from '../../../scripts/stand-in-model/sample-requirement';
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';
import { iterationFrame } from './inspect';

const agents = path.resolve(__dirname, '../../../../test/fixtures/agents');

export async function gatewayScenario(): Promise<string> {
  const task = await prepareDemoTask('gateway');
  const server = await startModelServer({
    brain: (c) => {
      const architect = promptText(c).includes('# Role: Architect');
      return {
        actions: [{ kind: 'text', text: architect ? SAMPLE_REQUIREMENT : 'a note from the model' }],
        usage: { input: 12_480, cachedInput: 4_096, output: 310 },
      };
    },
    adapters: [chatCompletionsAdapter],
  });
  try {
    const runtime = new LocalRuntime({ bwrap: await findBubblewrap(), readable: task.sandboxReadable });
    const role = (): RoleSetup => {
      const settings: AgentSettings = {
        kind: 'custom',
        command: `python3 ${path.join(agents, 'model-client.py')}`,
        promptVia: 'stdin',
        baseUrl: `${server.origin}/v1`,
        model: 'sweci-coder',
        timeoutSec: 120,
        maxTries: 1,
      };
      return { settings, driver: createDriver(settings, { host: runtime, model: DEFAULT_MODEL_ACCESS }) };
    };
    await startRun({
      task: taskFolder(task.taskDir),
      run: 'through-the-gateway',
      roles: { architect: role(), programmer: role() },
      runtime,
      pytest: { python: 'python3', timeoutMs: 120_000, format: 'junit' as const },
      maxIterations: 1,
    });
  } finally {
    await server.close();
  }
  return withWorkbench({ folder: task.taskDir, name: 'gateway', viewport: { width: 1440, height: 900 } }, async (page, wb) => {
    await wb.openSweciView();
    await wb.foldViews('Task', 'Non-Passed Tests');
    await (await wb.waitForTreeRow('through-the-gateway')).click();
    await page.mouse.move(900, 700);
    await (await wb.waitForTreeRow(/#1.*a\(c\)/)).click();
    const frame = await iterationFrame(page, /through-the-gateway\s+iteration 1 of 1/);
    // The line a person reads under each role: what the gateway counted.
    await frame
      .getByText(/Model: 1 model call through the gateway/)
      .first()
      .waitFor({ timeout: 15_000 });
    const lines = await frame.getByText(/Model: 1 model call through the gateway \(tokens as the wire reported them, 4(\.1)?k cached\), cost unknown/).count();
    if (lines !== 2) throw new Error(`each role's row says what the gateway counted: ${lines} of 2`);
    return wb.screenshot('gateway-iteration');
  });
}
