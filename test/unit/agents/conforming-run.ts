// What every conforming run of a real agent CLI through `sweci run` shows (the conformance suite,
// real-agents.test.ts, and its container case, real-agents-container.test.ts, check the same).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { LoopbackNamespace } from '../../harness/loopback-namespace';
import type { RecordedRequest } from '../../../scripts/stand-in-model/model-server';
import { REAL_KEY as KEY, REAL_REQUIREMENT as REQUIREMENT, REAL_TASK as TASK, startServerIn, targetFiles } from '../../harness/real-clis';
import { filesHolding } from '../helpers/list-tree';
import { transcriptFromCliEvents } from '../../../src/core/transcript/cli-events-transcript';

/** What a conformance file runs in: a folder, the batch demo dataset, a loopback-only namespace, and the scripted model server in it. */
export interface ConformanceBench {
  tmp: string;
  demo: DemoDataset;
  ns: LoopbackNamespace;
  server: ChildProcess;
  port: number;
  serverLog: string;
}

/** Sets a bench up in a new folder named from `prefix`; its server answers the real requirement and the target's files, to the real key. */
export async function startConformanceBench(prefix: string): Promise<ConformanceBench> {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  const demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { batch: true });
  const ns = LoopbackNamespace.create('sweci-conf');
  const { child: server, port, log: serverLog } = await startServerIn(ns, tmp, { requirementXml: REQUIREMENT, files: targetFiles(0, 2) }, 'main', KEY);
  return { tmp, demo, ns, server, port, serverLog };
}

export async function stopConformanceBench(bench: ConformanceBench | undefined): Promise<void> {
  bench?.server.kill('SIGTERM');
  bench?.ns.dispose();
  if (bench) await fs.rm(bench.tmp, { recursive: true, force: true });
}

export interface StepLine {
  kind: string;
  tries: number;
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
  permissions?: string;
  usage_source?: string;
  network?: string;
  agent_reported?: { cost_usd?: number };
}

export interface Line {
  iteration: number;
  gap: number;
  isolation?: string;
  architect?: StepLine;
  programmer?: StepLine;
}

function sum(requests: RecordedRequest[], label: string) {
  const mine = requests.filter((r) => r.label === label && r.usage);
  return { input: mine.reduce((a, r) => a + r.usage!.input, 0), output: mine.reduce((a, r) => a + r.usage!.output, 0), calls: mine.length };
}

/**
 * What every conforming run shows: one iteration, each role done in one try with every action
 * allowed; the Architect's requirement.xml is the model's, the Programmer's files were committed
 * and scored (gap 0); the shell commands ran; the key was the one given; the tokens recorded are
 * the server's, role by role.
 */
export async function assertConformingRun(
  r: { code: number | null; out: string; err: string },
  experiment: string,
  requests: RecordedRequest[],
  isolation: string,
  preset: string,
): Promise<void> {
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
  assert.equal(line.isolation, isolation);
  assert.equal(line.architect?.kind, 'agent');
  assert.equal(line.architect?.tries, 1, await logs());
  assert.equal(line.programmer?.tries, 1, await logs());
  assert.equal(line.architect?.permissions, 'every action accepted (confined)');

  // The Architect's document is the one the model wrote through the CLI's tool.
  assert.equal(await fs.readFile(path.join(runDir, 'iter-001', 'requirement.xml'), 'utf8'), REQUIREMENT);
  // The Programmer's edits were committed and scored: the target's code passes every target test.
  assert.equal(line.gap, 0, `the Programmer's files were scored\n${await logs()}`);

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
  const recorded: unknown[] = [];
  for (const role of ['architect', 'programmer'] as const) {
    const served = sum(requests, role);
    assert.ok(served.calls >= 3, `${role}: ${served.calls} model calls`);
    assert.equal(line[role]?.input_tokens, served.input, `${role} input tokens`);
    assert.equal(line[role]?.output_tokens, served.output, `${role} output tokens`);
    // Counted at the wire; the CLI's own figure is kept beside it. Without sweci.agents.prices the
    // cost is unknown, even where the CLI prints one from its own table (Claude Code's total_cost_usd).
    assert.equal(line[role]?.usage_source, 'wire', `${role}: usage from the wire`);
    assert.equal(line[role]?.network, 'model-only', `${role}: no network but the gateway`);
    assert.equal(line[role]?.cost_usd, undefined, `${role}: no price, no cost`);
    const log = await fs.readFile(path.join(runDir, 'iter-001', `${role}-try-1.log`), 'utf8');
    const printed = /"total_cost_usd":\s*([\d.e-]+)/.exec(log);
    if (printed) assert.equal(line[role]?.agent_reported?.cost_usd, Number(printed[1]), `${role}: the CLI's own cost is kept`);
    // The CLI's own event stream in the log is a transcript: a turn per answer the server gave the
    // role, the tool calls the scripted model made, and their results (the shell's output among them).
    const transcript = transcriptFromCliEvents(log, { role, iteration: 1, try: 1, agent: preset });
    assert.ok(transcript, `${role}: the log holds the CLI's event stream\n${log.slice(-3000)}`);
    const toolCalls = transcript.calls.flatMap((c) => c.toolCalls);
    assert.ok(toolCalls.length >= 2, `${role}: tool calls in the transcript: ${JSON.stringify(toolCalls).slice(0, 1000)}`);
    assert.equal(
      transcript.calls.filter((c) => !c.side && !c.truncated).length,
      served.calls,
      `${role}: a turn per answer: ${JSON.stringify(transcript.calls).slice(0, 3000)}`,
    );
    const results = transcript.calls.flatMap((c) => c.input.flatMap((i) => (i.kind === 'tool-result' ? [i.output] : [])));
    assert.ok(
      results.some((o) => (role === 'architect' ? o.includes('test_inventory.py') : /(^|\D)42(\D|$)/m.test(o))),
      `${role}: the shell command's output is a tool result: ${JSON.stringify(results).slice(0, 2000)}`,
    );
    assert.ok(
      toolCalls.some((c) => JSON.stringify(c.input).includes(role === 'architect' ? 'requirement.xml' : 'inventory.py')),
      `${role}: the file the model wrote is in a tool call's input: ${JSON.stringify(toolCalls).slice(0, 2000)}`,
    );
    // Every call the server answered is in the try's calls record, with the body the server received.
    const calls = (await fs.readFile(path.join(runDir, 'iter-001', `${role}-try-1.calls.jsonl`), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { call: number; request?: unknown; usage: { input: number; output: number } });
    recorded.push(...calls.filter((c) => c.request !== undefined).map((c) => c.request));
  }
  // Every request with a body the server answered went through the gateway and is in a calls
  // record, with the very body the server received.
  const received = requests.filter((q) => q.method === 'POST');
  assert.equal(recorded.length, received.length, 'the calls records hold every call the server answered');
  const key = (v: unknown) => JSON.stringify(v);
  assert.deepEqual(recorded.map(key).sort(), received.map((q) => key(q.body)).sort(), 'the bodies recorded are the bodies the server received');
  // The real key is in no file of the experiment: not the logs, not the calls records.
  assert.deepEqual(await filesHolding(experiment, KEY), [], 'the real key is in no file');
}
