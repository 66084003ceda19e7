// What the tests that run the real agent CLIs share (the conformance suite in
// test/unit/agents/real-agents.test.ts, the e2e scenario transcript-real-cli): where
// scripts/setup.sh installs them, the models they are given, the scripted model server as a
// process in a loopback-only namespace, and `sweci` run inside it with the key in its environment.
import { once } from 'node:events';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { DEMO_HISTORY } from '../../scripts/demo-dataset/history';
import type { LoopbackNamespace } from './loopback-namespace';
import type { RecordedRequest } from '../../scripts/stand-in-model/model-server';
import type { TaskScenario } from '../../scripts/stand-in-model/task-brain';

/** The repository root, found from this file's place in test/harness or out/test/harness. */
function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'tsconfig.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${start}`);
  }
}

const root = findRoot(__dirname);
export const SWECI_CLI = path.join(root, 'out', 'src', 'cli', 'main.js');
const SERVE_JS = path.join(root, 'out', 'scripts', 'stand-in-model', 'serve.js');
/** Where scripts/setup.sh installs the pinned CLIs (never globally). */
export const AGENTS_BIN = path.join(root, '.vscode-test', 'agents', 'node_modules', '.bin');
/** The batch demo's task the real CLIs work on: its target is two commits on. */
export const REAL_TASK = 'demo__tinyinventory-0002';
/** The key the runs are given (through an environment variable), and the server requires. */
export const REAL_KEY = 'sk-sweci-conformance-0123456789';
/** The environment variable that holds it. */
export const REAL_KEY_ENV = 'CONFORMANCE_KEY';

export interface PinnedCli {
  preset: string;
  spec: string;
  executable: string;
}

/** scripts/agent-clis.txt: the CLIs and their pinned versions. */
export function pinnedClis(): PinnedCli[] {
  return readFileSync(path.join(root, 'scripts', 'agent-clis.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [preset, spec, executable] = l.trim().split(/\s+/);
      return { preset, spec, executable };
    });
}

/** Model names the CLIs accept for a provider they do not know. */
export const CLI_MODELS: Record<string, string> = {
  'claude-code': 'claude-sonnet-4-5',
  codex: 'gpt-5-codex',
  gemini: 'gemini-2.5-pro',
  qwen: 'qwen3-coder-plus',
  opencode: 'sweci-coder',
};

/** The target's files outside tests/ for a window of the demo history: what the Programmer writes. */
export function targetFiles(base: number, target: number): Record<string, string> {
  const files: Record<string, string | null> = {};
  for (let i = base + 1; i <= target; i++) Object.assign(files, DEMO_HISTORY[i].files);
  return Object.fromEntries(Object.entries(files).filter((e): e is [string, string] => e[1] !== null && !e[0].startsWith('tests/')));
}

/** The requirement.xml the scripted model has the Architect write. */
export const REAL_REQUIREMENT = `<?xml version="1.0" encoding="UTF-8"?>
<requirements>
  <requirement id="1">
    <location>src/tinyinventory/inventory.py</location>
    <description>low_stock() leaves out items at the threshold, and search() is case-sensitive and ignores SKUs.</description>
    <contract>low_stock(threshold) returns items whose quantity is at or below it; search(text) matches names and SKUs, ignoring case.</contract>
    <acceptance>tests/test_inventory.py passes.</acceptance>
  </requirement>
</requirements>
`;

export interface ServedModel {
  child: ChildProcess;
  port: number;
  /** The requests it answered, one JSON line each. */
  log: string;
}

/** Starts the model server (serve.js) in the namespace with a scenario; resolves once it listens. */
export async function startServerIn(ns: LoopbackNamespace, dir: string, scenario: TaskScenario, name: string, requireKey?: string): Promise<ServedModel> {
  const file = path.join(dir, `${name}.scenario.json`);
  const log = path.join(dir, `${name}.requests.jsonl`);
  await fs.writeFile(file, JSON.stringify(scenario));
  const child = ns.spawn(process.execPath, [SERVE_JS, '--scenario', file, '--log', log, ...(requireKey ? ['--require-key', requireKey] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      const m = /listening (\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the model server exited (${code})`)));
  });
  return { child, port, log };
}

/** The requests a server has answered so far. */
export async function readRequests(log: string): Promise<RecordedRequest[]> {
  const text = await fs.readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RecordedRequest);
}

/** `sweci <args>` in the namespace, the pinned CLIs first on PATH and the key in REAL_KEY_ENV; interrupted after `timeoutMs`. */
export async function sweciIn(
  ns: LoopbackNamespace,
  cwd: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; out: string; err: string }> {
  const child = ns.spawn(process.execPath, [SWECI_CLI, ...args], {
    cwd,
    env: { ...process.env, PATH: `${AGENTS_BIN}${path.delimiter}${process.env.PATH ?? ''}`, [REAL_KEY_ENV]: REAL_KEY },
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

/** A headless run of `iterations` with the test key, agents and pytest on this machine under bubblewrap. */
export function sandboxedRunFlags(iterations: number): string[] {
  return ['--api-key-env', REAL_KEY_ENV, '--max-iterations', String(iterations), '--runtime', 'local', '--sandbox', 'bubblewrap'];
}

/** Both roles played by `preset`, with the model it is given here. */
export function agentFlags(preset: string): string[] {
  const model = CLI_MODELS[preset];
  return ['--architect', preset, '--programmer', preset, '--architect-model', model, '--programmer-model', model];
}

/**
 * `sweci run` flags for the demo task, one run named "real", against the model server on
 * `serverPort`: both roles played by `agents` (a preset), or as the flags given say.
 */
export function runFlags(datasetDir: string, experiment: string, agents: string | string[], serverPort: number, more: string[]): string[] {
  return [
    'run',
    '--dataset',
    datasetDir,
    '--tasks',
    REAL_TASK,
    '--experiment',
    experiment,
    '--run',
    'real',
    ...(typeof agents === 'string' ? agentFlags(agents) : agents),
    '--base-url',
    `http://127.0.0.1:${serverPort}/v1`,
    ...more,
    '--json',
  ];
}
