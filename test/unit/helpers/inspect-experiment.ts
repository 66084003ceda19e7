// An experiment as a user makes it, for the Inspect log tests: `sweci run` (a real process) over
// two tasks of the demo batch dataset, both roles tool-client.py (a real program with a tool
// loop, run by the real driver) calling the project's model server through SWE-CI's gateway,
// two iterations, with the upstream developers' replay beside it (--human-history). The model
// server's brain answers as a model does (a command, a file written, then a text answer), with
// usage that includes cache reads.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { DEMO_BATCH_TASK_IDS, type DemoDataset } from '../../../scripts/demo-dataset';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import type { Reply } from '../../../scripts/stand-in-model/conversation';
import { startModelServer } from '../../../scripts/stand-in-model/model-server';
import { SAMPLE_REQUIREMENT } from '../../../scripts/stand-in-model/sample-requirement';
import { taskBrain } from '../../../scripts/stand-in-model/task-brain';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { repoRoot } from './repo-root';

export const INSPECT_CLI = path.join(repoRoot, 'out', 'src', 'cli', 'main.js');
export const INSPECT_RUN = 'tools';
export const INSPECT_MODEL = 'sweci-coder';
export const INSPECT_TASKS = DEMO_BATCH_TASK_IDS.slice(0, 2);
const AGENTS_DIR = path.join(repoRoot, 'test', 'fixtures', 'agents');
const KEY = 'sk-sweci-inspect-0123456789';
const HELPER = `def answer():\n    return 6 * 7\n`;

export interface InspectExperiment {
  experiment: string;
  demo: DemoDataset;
}

/** `node <cli> args` in `cwd`, waited for. */
export async function runCli(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [INSPECT_CLI, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, err };
}

/** The experiment in `<tmp>/exp`: run `tools` (the agents) and `human-history`. */
export async function buildInspectExperiment(tmp: string): Promise<InspectExperiment> {
  const demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { batch: true });
  const brain = taskBrain({ requirementXml: SAMPLE_REQUIREMENT, files: { 'helper.py': HELPER } });
  // Every call: 1,000 input tokens of which 400 from the cache, 60 out (its own figures, so the usage in the log can be checked to the token).
  const server = await startModelServer({
    brain: (c): Reply => ({ ...brain(c), usage: { input: 1000, cachedInput: 400, output: 60 } }),
    adapters: [chatCompletionsAdapter],
    requireKey: KEY,
  });
  try {
    const experiment = path.join(tmp, 'exp');
    const agent = `python3 ${path.join(AGENTS_DIR, 'tool-client.py')}`;
    const r = await runCli(
      tmp,
      [
        'run',
        '--dataset',
        demo.datasetDir,
        '--tasks',
        INSPECT_TASKS.join(','),
        '--experiment',
        experiment,
        '--run',
        INSPECT_RUN,
        '--architect',
        'custom',
        '--architect-command',
        agent,
        '--programmer',
        'custom',
        '--programmer-command',
        agent,
        '--architect-model',
        INSPECT_MODEL,
        '--programmer-model',
        INSPECT_MODEL,
        '--base-url',
        `${server.origin}/v1`,
        '--api-key-env',
        'INSPECT_KEY',
        '--runtime',
        'local',
        '--sandbox-readable',
        AGENTS_DIR,
        '--max-iterations',
        '2',
        '--human-history',
        '--history-commits',
        '2',
        '--workers',
        '2',
        '--json',
      ],
      { INSPECT_KEY: KEY },
    );
    if (r.code !== 0) throw new Error(`sweci run exited ${r.code}: ${r.err}\n${r.out.slice(-3000)}`);
    await fs.access(path.join(experiment, INSPECT_TASKS[0], '.sweci', 'runs', INSPECT_RUN, 'iteration.jsonl'));
    return { experiment, demo };
  } finally {
    await server.close();
  }
}
