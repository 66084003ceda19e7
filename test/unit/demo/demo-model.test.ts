// The demo's agent (scripts/demo-agent/demo-agent.py, run as a real program) against the demo's
// stand-in model (scripts/demo-agents.ts): the model answers only on loopback, and what the agent
// does is what the model asked for. As the Programmer, on the base's code, it writes the
// developers' next commit; as the Architect, it turns the non-passed summary into a valid
// requirement.xml. (Through the gateway, in the editor: the e2e scenario demo-toast.)
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEMO_AGENT_DIR, DEMO_MODEL, demoModelUrl, startDemoModel } from '../../../scripts/demo-agents';
import { buildDemoRepo } from '../../../scripts/demo-dataset';
import type { ModelServer } from '../../../scripts/stand-in-model/model-server';
import { validateRequirement } from '../../../src/core/requirement/validate-requirement';

const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
let tmp: string;
let repo: string;
let shas: string[];
let model: ModelServer;

const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });

/** Runs the demo agent on `prompt` (stdin), as a custom agent with an endpoint is run (not blocking: the model answers in this process). */
function runAgent(prompt: string): Promise<{ status: number | null; output: string }> {
  const child = spawn(PYTHON, [path.join(DEMO_AGENT_DIR, 'demo-agent.py')], {
    env: { PATH: process.env.PATH ?? '', SWECI_BASE_URL: demoModelUrl(model), SWECI_API_KEY: 'any', SWECI_MODEL: DEMO_MODEL },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  child.stdin.end(prompt);
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, output })));
}

/** Whether a TCP connection to `host`:`port` is taken. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

describe("the demo's agent and its stand-in model", () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-demo-model-'));
    repo = path.join(tmp, 'upstream');
    shas = await buildDemoRepo(repo);
    model = await startDemoModel({ gitDir: path.join(repo, '.git'), commits: shas });
  });
  after(async () => {
    await model?.close();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  test('the stand-in answers on 127.0.0.1 only, not on any other address of this machine', async () => {
    assert.match(model.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await connects('127.0.0.1', model.port), true);
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === 'IPv4')
      .map((a) => a!.address);
    for (const address of others) assert.equal(await connects(address, model.port), false, `the stand-in answered on ${address}`);
  });

  test("as the Programmer on the base's code it writes the developers' next commit, every file through a model call", async () => {
    const code = path.join(tmp, 'app', 'code');
    await fs.mkdir(code, { recursive: true });
    execFileSync('sh', ['-c', `git -C '${repo}' archive ${shas[0]} | tar -x -C '${code}'`]);
    const before = model.requests.length;
    const r = await runAgent(`# Role: Programmer\n\nChange the code in \`${code}\` to meet the requirements.\n`);
    assert.equal(r.status, 0, r.output);
    assert.match(r.output, /^bash -> [0-9a-f]{64} {2}\.\//m, 'it first listed the code with its hashes');
    const next = git('ls-tree', '-r', '--name-only', shas[1])
      .split('\n')
      .filter((f) => f && !/^(tests?|\.git)\//.test(f));
    const changed = git('diff', '--name-only', shas[0], shas[1], '--', '.', ':!tests', ':!test');
    assert.ok(changed.trim().length > 0, 'the first commit changes code');
    for (const rel of next) assert.equal(await fs.readFile(path.join(code, rel), 'utf8'), git('show', `${shas[1]}:${rel}`), rel);
    // One call to list, one per file written, one to say it is done.
    const calls = model.requests.length - before;
    const written = (r.output.match(/^write -> /gm) ?? []).length;
    assert.ok(written >= changed.trim().split('\n').length, `${written} writes for ${changed}`);
    assert.equal(calls, written + 2, r.output);
  });

  test('as the Architect it turns the non-passed summary into a valid requirement.xml, one requirement per test file', async () => {
    const app = path.join(tmp, 'architect');
    await fs.mkdir(app, { recursive: true });
    const summary = path.join(app, 'summary.jsonl');
    const requirement = path.join(app, 'requirement.xml');
    await fs.writeFile(
      summary,
      [
        { test: 'tests/test_a.py::test_one', description: 'Test failed at call stage.' },
        { test: 'tests/test_a.py::test_two', description: 'Test failed at call stage.' },
        { test: 'tests/test_b.py::test_three', description: 'Test errored at setup <fixture>.' },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    );
    const r = await runAgent(`# Role: Architect\n\nRead \`${summary}\` and write \`${requirement}\`.\n`);
    assert.equal(r.status, 0, r.output);
    const xml = await fs.readFile(requirement, 'utf8');
    const checked = validateRequirement(xml);
    assert.deepEqual(checked.errors, [], xml);
    assert.equal((xml.match(/<requirement id=/g) ?? []).length, 2, xml);
    assert.match(xml, /2 tests do not pass: tests\/test_a\.py::test_one, tests\/test_a\.py::test_two/);
    assert.match(xml, /&lt;fixture&gt;/, 'text is escaped');
  });
});
