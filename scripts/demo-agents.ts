// The demo's agents and their model: one small agent program (scripts/demo-agent) plays both
// roles, and calls its model through SWE-CI's model gateway like any agent with an endpoint; the
// model is the stand-in (scripts/stand-in-model with the demo's brain), which the demo starts on
// 127.0.0.1 and stops with itself. No key is needed (the stand-in takes any), so the gateway's
// calls record, the transcript, the cost (at the demo's made-up prices) and Replay Run all work.
// `npm run demo` and the e2e scenarios that play the demo use these same settings.
import * as path from 'node:path';
import { chatCompletionsAdapter } from './stand-in-model/chat-completions';
import { demoBrain, type DemoHistory } from './stand-in-model/demo-brain';
import { startModelServer, type ModelServer } from './stand-in-model/model-server';

/** The model the demo's agents ask for: the name the calls record and the prices carry. */
export const DEMO_MODEL = 'sweci-stand-in';

/** Made-up prices for the stand-in, in dollars per million tokens, so the cost line has figures. */
export const DEMO_PRICES = { [DEMO_MODEL]: { input: 15, cached: 1.5, output: 75 } } as const;

/** The demo agent's folder (the sandbox shows it to the agent, nothing else of this checkout). */
export const DEMO_AGENT_DIR = path.resolve(__dirname, '..', '..', 'scripts', 'demo-agent');

/** The first line of the task's settings file the demo writes: the file is the demo's while it starts with it. */
export const DEMO_SETTINGS_MARK = '// Demo only: the demo\'s agent and its stand-in model (see README, "The demo\'s agents").';

/** The stand-in's base URL as the settings give it (Chat Completions: with /v1). */
export function demoModelUrl(model: Pick<ModelServer, 'origin'>): string {
  return `${model.origin}/v1`;
}

/** The workspace settings that make the demo agent play both roles against the stand-in at `modelUrl`. */
export function demoAgentSettings(modelUrl: string): Record<string, unknown> {
  const agent = `python3 ${JSON.stringify(path.join(DEMO_AGENT_DIR, 'demo-agent.py'))}`;
  return {
    'sweci.architect.agent': 'custom',
    'sweci.architect.customCommand': agent,
    'sweci.architect.model': DEMO_MODEL,
    'sweci.programmer.agent': 'custom',
    'sweci.programmer.customCommand': agent,
    'sweci.programmer.model': DEMO_MODEL,
    'sweci.agents.baseUrl': modelUrl,
    'sweci.agents.prices': DEMO_PRICES,
    // The sandbox shows an agent only what it is given: here, its own script.
    'sweci.sandboxReadablePaths': [DEMO_AGENT_DIR],
  };
}

/** Starts the stand-in model on 127.0.0.1 (a free port, or `port`), knowing the demo task's history. */
export function startDemoModel(history: DemoHistory, port = 0): Promise<ModelServer> {
  return startModelServer({ brain: demoBrain(history), adapters: [chatCompletionsAdapter], port });
}
