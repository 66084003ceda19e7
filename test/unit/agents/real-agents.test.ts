// The conformance suite: every preset runs its real CLI (pinned in scripts/agent-clis.txt,
// installed by scripts/setup.sh) through the real loop — `sweci run` on the demo dataset,
// sandboxed, Architect and Programmer, one iteration — against the project's scripted model
// server, with nothing configured but `--base-url` and `--api-key-env`. Everything runs in a
// network namespace that has only `lo`: no byte leaves the machine.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import { buildDemoDataset, type DemoDataset } from '../../../scripts/demo-dataset';
import { DEMO_HISTORY } from '../../../scripts/demo-dataset/history';
import type { RecordedRequest } from '../../harness/model-server/model-server';
import type { TaskScenario } from '../../harness/model-server/task-brain';
import { LoopbackNamespace } from '../helpers/loopback-namespace';
import { repoRoot } from '../helpers/repo-root';

const cli = path.join(repoRoot, 'out', 'src', 'cli', 'main.js');
const serveJs = path.join(repoRoot, 'out', 'test', 'harness', 'model-server', 'serve.js');
const BIN = path.join(repoRoot, '.vscode-test', 'agents', 'node_modules', '.bin');
const TASK = 'demo__tinyinventory-0002';
const KEY = 'sk-sweci-conformance-0123456789';

interface PinnedCli {
  preset: string;
  spec: string;
  executable: string;
}

/** scripts/agent-clis.txt: the CLIs and their pinned versions. */
export function pinnedClis(): PinnedCli[] {
  return readFileSync(path.join(repoRoot, 'scripts', 'agent-clis.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [preset, spec, executable] = l.trim().split(/\s+/);
      return { preset, spec, executable };
    });
}

/** Model names the CLIs accept for a provider they do not know. */
const MODELS: Record<string, string> = {
  'claude-code': 'claude-sonnet-4-5',
  codex: 'gpt-5-codex',
  gemini: 'gemini-2.5-pro',
  qwen: 'qwen3-coder-plus',
  opencode: 'sweci-coder',
};

/** The target's files outside tests/ for a window of the demo history: what the Programmer writes. */
function targetFiles(base: number, target: number): Record<string, string> {
  const files: Record<string, string | null> = {};
  for (let i = base + 1; i <= target; i++) Object.assign(files, DEMO_HISTORY[i].files);
  return Object.fromEntries(Object.entries(files).filter((e): e is [string, string] => e[1] !== null && !e[0].startsWith('tests/')));
}

const REQUIREMENT = `<?xml version="1.0" encoding="UTF-8"?>
<requirements>
  <requirement id="1">
    <location>src/tinyinventory/inventory.py</location>
    <description>low_stock() leaves out items at the threshold, and search() is case-sensitive and ignores SKUs.</description>
    <contract>low_stock(threshold) returns items whose quantity is at or below it; search(text) matches names and SKUs, ignoring case.</contract>
    <acceptance>tests/test_inventory.py passes.</acceptance>
  </requirement>
</requirements>
`;

interface Line {
  iteration: number;
  gap: number;
  isolation?: string;
  architect?: { kind: string; tries: number; input_tokens?: number; output_tokens?: number; permissions?: string };
  programmer?: { kind: string; tries: number; input_tokens?: number; output_tokens?: number; permissions?: string };
}

let tmp: string;
let demo: DemoDataset;
let ns: LoopbackNamespace;
let server: ChildProcess;
let port: number;
let serverLog: string;

async function readLog(): Promise<RecordedRequest[]> {
  const text = await fs.readFile(serverLog, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RecordedRequest);
}

function sum(requests: RecordedRequest[], label: string) {
  const mine = requests.filter((r) => r.label === label && r.usage);
  return { input: mine.reduce((a, r) => a + r.usage!.input, 0), output: mine.reduce((a, r) => a + r.usage!.output, 0), calls: mine.length };
}

async function sweciInNamespace(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string; err: string }> {
  const child = ns.spawn(process.execPath, [cli, ...args], {
    cwd: tmp,
    env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}`, CONFORMANCE_KEY: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill('SIGINT'), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, out, err };
}

describe('real agent CLIs through the loop: one endpoint, sandboxed, loopback only', { timeout: 40 * 60_000 }, () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-real-agents-')));
    demo = await buildDemoDataset(path.join(tmp, 'dataset'), { batch: true });
    const scenario: TaskScenario = { requirementXml: REQUIREMENT, files: targetFiles(0, 2) };
    await fs.writeFile(path.join(tmp, 'scenario.json'), JSON.stringify(scenario));
    serverLog = path.join(tmp, 'requests.jsonl');
    ns = LoopbackNamespace.create('sweci-conf');
    server = ns.spawn(process.execPath, [serveJs, '--scenario', path.join(tmp, 'scenario.json'), '--log', serverLog, '--require-key', KEY], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    port = await new Promise<number>((resolve, reject) => {
      let text = '';
      server.stdout!.on('data', (d: Buffer) => {
        text += d.toString();
        const m = /listening (\d+)/.exec(text);
        if (m) resolve(Number(m[1]));
      });
      server.once('exit', (code) => reject(new Error(`the model server exited (${code})`)));
    });
  });

  after(async () => {
    server?.kill('SIGTERM');
    ns?.dispose();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  test('the namespace has only loopback', () => {
    assert.deepEqual(ns.interfaces(), ['lo']);
  });

  for (const pinned of pinnedClis()) {
    test(`${pinned.preset} (${pinned.spec}): the Architect's requirement.xml is the model's, the Programmer's edit is scored, tokens are the server's`, async () => {
      assert.ok(existsSync(path.join(BIN, pinned.executable)), `${pinned.executable} is installed by scripts/setup.sh`);
      const experiment = path.join(tmp, `exp-${pinned.preset}`);
      const before = (await readLog()).length;
      const model = MODELS[pinned.preset];
      const r = await sweciInNamespace(
        [
          'run',
          '--dataset',
          demo.datasetDir,
          '--tasks',
          TASK,
          '--experiment',
          experiment,
          '--run',
          'real',
          '--architect',
          pinned.preset,
          '--programmer',
          pinned.preset,
          '--architect-model',
          model,
          '--programmer-model',
          model,
          '--base-url',
          `http://127.0.0.1:${port}/v1`,
          '--api-key-env',
          'CONFORMANCE_KEY',
          '--max-iterations',
          '1',
          '--runtime',
          'local',
          '--sandbox',
          'bubblewrap',
          '--json',
        ],
        8 * 60_000,
      );
      const runDir = path.join(experiment, TASK, '.sweci', 'runs', 'real');
      const lines = (await fs.readFile(path.join(runDir, 'iteration.jsonl'), 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line);
      const logs = async () => {
        const dir = path.join(runDir, lines.length > 1 ? 'iter-001' : 'pending');
        const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.log'));
        return (await Promise.all(names.map(async (n) => `--- ${n}\n${(await fs.readFile(path.join(dir, n), 'utf8')).slice(-4000)}`))).join('\n');
      };
      assert.equal(r.code, 0, `sweci run failed:\n${r.err}\n${r.out.slice(-3000)}\n${await logs()}`);
      assert.equal(lines.length, 2, `one iteration recorded\n${await logs()}`);
      const line = lines[1];
      assert.equal(line.isolation, 'sandbox');
      assert.equal(line.architect?.kind, 'agent');
      assert.equal(line.architect?.tries, 1, await logs());
      assert.equal(line.programmer?.tries, 1, await logs());
      assert.equal(line.architect?.permissions, 'every action accepted (confined)');

      // The Architect's document is the one the model wrote through the CLI's tool.
      assert.equal(await fs.readFile(path.join(runDir, 'iter-001', 'requirement.xml'), 'utf8'), REQUIREMENT);
      // The Programmer's edits were committed and scored: the target's code passes every target test.
      assert.equal(line.gap, 0, `the Programmer's files were scored\n${await logs()}`);

      const requests = (await readLog()).slice(before);
      // Shell commands ran inside the confined step: the summary came back to the Architect, a computed 42 to the Programmer.
      const outputs = requests.flatMap((q) => q.toolOutputs ?? []);
      assert.ok(
        outputs.some((o) => o.includes('test_inventory.py')),
        `the Architect's shell command read the summary: ${JSON.stringify(outputs).slice(0, 2000)}`,
      );
      assert.ok(
        outputs.some((o) => /(^|\D)42(\D|$)/m.test(o)),
        `the Programmer's shell command ran: ${JSON.stringify(outputs).slice(0, 2000)}`,
      );
      // Every request carried the key we passed, and nothing else.
      assert.deepEqual([...new Set(requests.filter((q) => q.protocol !== 'other').map((q) => q.key))], [KEY]);
      // The tokens recorded are the ones the server reported for that role.
      for (const role of ['architect', 'programmer'] as const) {
        const served = sum(requests, role);
        assert.ok(served.calls >= 3, `${role}: ${served.calls} model calls`);
        assert.equal(line[role]?.input_tokens, served.input, `${role} input tokens`);
        assert.equal(line[role]?.output_tokens, served.output, `${role} output tokens`);
      }
    });
  }
});
