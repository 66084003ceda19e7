// `sweci transcript` as a user runs it (a real process) on a task folder built by code: a run
// played by agents (an archived iteration with two Architect tries, a Programmer that did not go
// through the gateway, an iteration in progress) and an older run played by hand.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { appendIterationRecord, type IterationRecord, type RoleStepRecord } from '../../../src/core/loop/iteration-record';
import { writeJournal } from '../../../src/core/loop/journal';
import { ARCHIVE, writeRunInfo, type RunInfo } from '../../../src/core/loop/run-store';
import { formatGatewayCallLine } from '../../../src/core/records/gateway-call';
import { transcriptSchema } from '../../../src/shared/transcript-schema';
import { REQUIREMENT, architectTry, modelCall } from './wire-fixture';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
let tmp: string;
let taskDir: string;

function sweci(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'transcript', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const agentStep = (agent: string, tries: number): RoleStepRecord => ({ kind: 'agent', agent, tries });
const humanStep: RoleStepRecord = { kind: 'human', agent: 'human', tries: 1 };

function line(run: string, iteration: number, steps: Partial<IterationRecord> = {}): IterationRecord {
  return {
    gap: 2,
    pytest: { passed: 3, failed: 2 },
    iteration,
    run,
    started_at: '2024-05-01T10:00:00Z',
    finished_at: '2024-05-01T10:05:00Z',
    commit: 'a'.repeat(40),
    passed: 3,
    target_passed: 5,
    regressions: [],
    tampered: [],
    outside_changes: [],
    ...steps,
  };
}

async function makeRun(info: RunInfo, iterations: IterationRecord[]): Promise<void> {
  await writeRunInfo(taskFolder(taskDir), info);
  const layout = taskFolder(taskDir).run(info.name);
  for (const record of iterations) {
    await appendIterationRecord(layout.iterationsFile, record);
    await fs.mkdir(layout.iterationDir(record.iteration), { recursive: true });
  }
}

const LOG_THROUGH_GATEWAY =
  "# SWE-CI agent run\n# agent:   claude-code\n# endpoint: http://127.0.0.1:4000 (anthropic-messages, SWE-CI's gateway with a key of this try's own)\n";
const LOG_ON_ITS_OWN = '# SWE-CI agent run\n# agent:   custom\n# network: not confined\nhello\n';

describe('sweci transcript', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-transcript-cli-')));
    taskDir = path.join(tmp, 'task');
    await fs.mkdir(taskFolder(taskDir).sweciDir, { recursive: true });
    await fs.writeFile(taskFolder(taskDir).taskFile, '{}\n');
    const base = { schema: 1 as const, kind: 'loop' as const, maxIterations: 20, baseCommit: 'b'.repeat(40) };
    const human = { kind: 'human' as const, label: 'human' };
    await makeRun({ ...base, name: 'by-hand', created: '2024-04-01T00:00:00Z', roles: { architect: human, programmer: human } }, [
      line('by-hand', 0),
      line('by-hand', 1, { architect: humanStep, programmer: humanStep }),
    ]);
    await makeRun(
      {
        ...base,
        name: 'agents',
        created: '2024-05-01T00:00:00Z',
        roles: {
          architect: { kind: 'agent', label: 'Claude Code', preset: 'claude-code' },
          programmer: { kind: 'agent', label: 'custom', command: 'python3 agent.py' },
        },
      },
      [line('agents', 0), line('agents', 1, { architect: agentStep('claude-code', 2), programmer: agentStep('custom', 1) })],
    );
    const layout = taskFolder(taskDir).run('agents');
    const iter1 = layout.iterationDir(1);
    const { calls } = architectTry('anthropic-messages');
    // Try 1: its one call failed. Try 2: the whole conversation.
    const failed = modelCall('anthropic-messages', 1, calls[0].request, {}, { status: 529, response: undefined, error: 'overloaded' });
    await fs.writeFile(path.join(iter1, ARCHIVE.agentLog('architect', 1)), LOG_THROUGH_GATEWAY);
    await fs.writeFile(path.join(iter1, ARCHIVE.agentCalls('architect', 1)), formatGatewayCallLine(failed));
    await fs.writeFile(path.join(iter1, ARCHIVE.agentLog('architect', 2)), LOG_THROUGH_GATEWAY);
    await fs.writeFile(path.join(iter1, ARCHIVE.agentCalls('architect', 2)), calls.map(formatGatewayCallLine).join(''));
    await fs.writeFile(path.join(iter1, ARCHIVE.agentLog('programmer', 1)), LOG_ON_ITS_OWN);
    // Iteration 2 in progress: the Architect's second call is being written.
    await writeJournal(layout.pendingDir, { schema: 1, run: 'agents', iteration: 2, started_at: '2024-05-01T11:00:00Z', startCommit: 'a'.repeat(40) });
    const second = formatGatewayCallLine(calls[2]);
    await fs.writeFile(path.join(layout.pendingDir, ARCHIVE.agentLog('architect', 1)), LOG_THROUGH_GATEWAY);
    await fs.writeFile(path.join(layout.pendingDir, ARCHIVE.agentCalls('architect', 1)), formatGatewayCallLine(calls[0]) + second.slice(0, 100));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test("json: the latest agents' run and the role's last try, each call with its tool calls and tokens", () => {
    const r = sweci(taskDir, '--iteration', '1', '--role', 'architect', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    const t = transcriptSchema.parse(JSON.parse(r.out));
    assert.equal(t.run, 'agents');
    assert.equal(t.try, 2);
    assert.equal(t.agent, 'claude-code');
    assert.deepEqual(
      t.calls.flatMap((c) => c.toolCalls.map((x) => [c.call, x.name, x.input])),
      [
        [1, 'Bash', { command: "cat '/task/app/non-passed/summary.jsonl'", description: 'read' }],
        [3, 'Write', { file_path: '/task/app/requirement.xml', content: REQUIREMENT }],
      ],
    );
    assert.deepEqual(
      t.calls.map((c) => c.usage?.input),
      [1000, 40, 3000, 4000],
    );
  });

  test('text, another try: the failed call is said; an iteration in progress reads what has ended', () => {
    const r = sweci(taskDir, '--run', 'agents', '--iteration', '1', '--role', 'architect', '--try', '1');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^architect · iteration 1 · try 1\nrun agents · agent claude-code · from the gateway's record\n/);
    assert.match(r.out, /── call 1 · claude-sonnet-4-5 · .* · HTTP 529\n {2}failed: overloaded\n/);
    assert.match(r.out, /\ntotal: 1 call · /);
    const running = sweci(taskDir, '--iteration', '2', '--role', 'architect', '--format', 'markdown');
    assert.equal(running.code, 0, running.err);
    assert.match(running.out, /- note: The iteration has not finished/);
    assert.match(running.out, /## Call 1 /);
    assert.doesNotMatch(running.out, /## Call 3 /, 'the half-written line is not read');
  });

  test('what to do when there is nothing to show: no such run, iteration or try; a human; an agent that did not use the gateway', () => {
    const fails = (args: string[], message: RegExp) => {
      const r = sweci(...args);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.out}`);
      assert.match(r.err, message, args.join(' '));
      assert.equal(r.out, '');
    };
    fails([taskDir, '--iteration', '5', '--role', 'architect'], /^error: Run agents has no iteration 5: its iterations: 1, 2 \(in progress\)\.\n$/);
    fails([taskDir, '--role', 'architect'], /transcript needs --iteration <n>: run agents, its iterations: 1, 2 \(in progress\)/);
    fails([taskDir, '--iteration', '0', '--role', 'architect'], /Iteration 0 is the checkout's base run: no agent played in it/);
    fails([taskDir, '--iteration', '1', '--role', 'architect', '--try', '3'], /The architect made no try 3 in iteration 1 of run agents; its tries: 1, 2\./);
    fails(
      [taskDir, '--iteration', '1', '--role', 'programmer'],
      /No transcript for the programmer's try 1: the agent did not reach its model through SWE-CI's gateway.*set sweci\.agents\.baseUrl.*programmer-try-1\.log/,
    );
    fails([taskDir, '--iteration', '2', '--role', 'programmer'], /The programmer has not started in iteration 2 of run agents yet/);
    fails(
      [taskDir, '--run', 'by-hand', '--iteration', '1', '--role', 'architect'],
      /A human played the architect in iteration 1 of run by-hand: there is no agent transcript\./,
    );
    fails([taskDir, '--run', 'nope', '--iteration', '1', '--role', 'architect'], /has no run named "nope"; its runs: by-hand, agents\./);
    fails([taskDir, '--iteration', '1', '--role', 'tester'], /transcript needs --role architect or --role programmer, not "tester"/);
    fails([taskDir, '--iteration', '1', '--role', 'architect', '--format', 'html'], /--format must be one of text, markdown, json, not "html"/);
    fails([taskDir, '--iteration', 'one', '--role', 'architect'], /--iteration must be a whole number of 0 or more, not "one"/);
    fails([tmp, '--iteration', '1', '--role', 'architect'], /is not a SWE-CI task folder \(no \.sweci\/task\.json\)/);
  });

  test('a try that went through the gateway but made no call says so', async () => {
    const iter1 = taskFolder(taskDir).run('agents').iterationDir(1);
    await fs.writeFile(path.join(iter1, ARCHIVE.agentLog('architect', 3)), LOG_THROUGH_GATEWAY);
    try {
      const r = sweci(taskDir, '--iteration', '1', '--role', 'architect');
      assert.equal(r.code, 1);
      assert.match(r.err, /No transcript for the architect's try 3: it went through SWE-CI's model gateway but made no model call there/);
    } finally {
      await fs.rm(path.join(iter1, ARCHIVE.agentLog('architect', 3)));
    }
  });
});
