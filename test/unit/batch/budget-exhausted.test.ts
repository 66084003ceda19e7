// A cost budget through the real command line (issue 30): `sweci run --max-cost-per-task` with
// prices, a scripted agent that calls its model through the gateway (model-client.py), and the
// project's model server on this machine's loopback. The task ends `budget-exhausted`, the run
// says why, `summarize` names it, and the command refuses a cost bound it could not see.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import { promptText } from '../../../scripts/stand-in-model/conversation';
import { startModelServer, type ModelServer } from '../../../scripts/stand-in-model/model-server';
import { repoRoot } from '../helpers/repo-root';
import { AGENTS_DIR, PYTHON } from '../loop/demo-fixture';
import { SAMPLE_REQUIREMENT as REQUIREMENT } from '../../../scripts/stand-in-model/sample-requirement';

const cli = path.join(repoRoot, 'out', 'src', 'cli', 'main.js');
const TASK = 'demo__tinyinventory-0002';
const KEY = 'sk-sweci-budget-0123456789';

let tmp: string;
let demo: DemoDataset;
let server: ModelServer;

async function sweci(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: tmp, env: { ...process.env, BUDGET_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, err };
}

function runArgs(experiment: string, more: string[]): string[] {
  const agent = `${PYTHON} ${path.join(AGENTS_DIR, 'model-client.py')}`;
  return [
    'run',
    '--dataset',
    demo.datasetDir,
    '--tasks',
    TASK,
    '--experiment',
    experiment,
    '--architect',
    'custom',
    '--architect-command',
    agent,
    '--programmer',
    'custom',
    '--programmer-command',
    agent,
    '--base-url',
    `${server.origin}/v1`,
    '--api-key-env',
    'BUDGET_KEY',
    '--runtime',
    'local',
    '--sandbox-readable',
    AGENTS_DIR,
    '--max-iterations',
    '3',
    '--json',
    ...more,
  ];
}

describe('a cost budget on the command line', { timeout: 10 * 60_000 }, () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-budget-')));
    demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { batch: true });
    // Every call costs 1,000 input and 100 output tokens: $0.0011 at $1 per million each.
    server = await startModelServer({
      brain: (c) => ({
        actions: [{ kind: 'text', text: promptText(c).includes('# Role: Architect') ? REQUIREMENT : 'a note' }],
        usage: { input: 1000, cachedInput: 0, output: 100 },
        label: 'call',
      }),
      adapters: [chatCompletionsAdapter],
      requireKey: KEY,
    });
  });
  after(async () => {
    await server?.close();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  test('--max-cost-per-task: the task ends budget-exhausted once its calls cost more, the run says so, and summarize names it', async () => {
    const experiment = path.join(tmp, 'exp');
    const config = path.join(tmp, 'prices.json');
    await fs.writeFile(config, JSON.stringify({ 'sweci.agents.prices': { m: { input: 1, output: 1 } } }));
    // Model calls only: the endpoint check before the run asks for the model list too.
    const calls = () => server.requests.filter((q) => !/\/models\/?$/.test(q.path ?? '')).length;
    const before = calls();
    const r = await sweci(runArgs(experiment, ['--architect-model', 'm', '--programmer-model', 'm', '--config', config, '--max-cost-per-task', '0.002']));
    assert.equal(r.code, 1, `a task that did not finish: exit 1\n${r.err}\n${r.out.slice(-2000)}`);
    const status = JSON.parse(await fs.readFile(path.join(experiment, '.sweci-batch', `${TASK}.json`), 'utf8')) as { state: string; reason?: string };
    assert.equal(status.state, 'budget-exhausted', JSON.stringify(status));
    assert.match(status.reason ?? '', /budget exhausted: task cost \(\$0\.002\)/);
    // The Architect's and the Programmer's calls ($0.0022) spend it: the next Architect's is
    // refused by the gateway, after one iteration, and never reaches the server.
    assert.equal(calls() - before, 2, 'no call past the budget reached the model');
    const summary = await sweci(['summarize', experiment]);
    assert.equal(summary.code, 0, summary.err);
    assert.match(
      summary.out,
      /stopped at a budget \(their scores count the iterations they ran\):\n {2}demo__tinyinventory-0002: .*budget exhausted: task cost/,
    );
  });

  test('a cost bound without prices is refused before anything runs', async () => {
    const experiment = path.join(tmp, 'exp-no-prices');
    const r = await sweci(runArgs(experiment, ['--max-cost', '5']));
    assert.equal(r.code, 1);
    assert.match(r.err, /--max-cost needs prices: set sweci\.agents\.prices in the --config file/);
    await assert.rejects(fs.access(path.join(experiment, TASK)), 'no task was checked out');
  });
});
