// CliAgentDriver end to end: the real scripted agents (test/fixtures/agents) run through the
// LocalRuntime against a real checked-out task (real git, real pytest).
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentRole, AgentRunRequest, AgentSettings } from '../../../src/core/agents/agent-driver';
import { quoteWord } from '../../../src/core/util/argv-tokenizer';
import { CliAgentDriver, createDriver } from '../../../src/core/agents/cli-driver';
import { promptPathsFor, renderPrompt } from '../../../src/core/agents/prompts';
import { checkOutTask } from '../../../src/core/checkout/check-out-task';
import { runCurrentTests } from '../../../src/core/checkout/run-current-tests';
import { validateRequirementFile } from '../../../src/core/requirement/validate-requirement';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { taskFromGitPair } from '../../../src/core/task/git-pair';
import { UserError } from '../../../src/core/util/errors';
import { oracleLayout, type TaskRecord } from '../../../src/core/workspace/layout';
import { fixturesDir } from '../helpers/repo-root';
import { waitDead } from '../runtime/process-helpers';
import { TestRepo } from '../task/git-fixture';

const posix = process.platform !== 'win32';
const agentsDir = path.join(fixturesDir, 'agents');
const agent = (name: string): string => quoteWord(path.join(agentsDir, name));
const runtime = new LocalRuntime({ orphanGraceMs: 500 });
const SECRET = 'sk-test-7f3a9c1e5b2d4f60';

let tmp: string;
let repo: TestRepo;
let commits: string[];
let n = 0;

interface Task {
  dir: string;
  record: TaskRecord;
}

async function checkOut(name: string): Promise<Task> {
  const dir = path.join(tmp, `${name}-${++n}`);
  const spec = await taskFromGitPair(repo.dir, commits[0], commits[commits.length - 1]);
  const { record, current } = await checkOutTask(spec, {
    python: 'python3',
    timeoutMs: 120_000,
    format: 'junit',
    task: taskFolder(dir),
    oracleDir: path.join(tmp, `${name}-${n}-oracle`),
    runtime,
    runTests: true,
  });
  assert.equal(current?.gap, 2, 'test_add and test_mul do not pass at the base');
  return { dir, record };
}

function request(task: Task, role: AgentRole, extra: Partial<AgentRunRequest> = {}): AgentRunRequest {
  const layout = taskFolder(task.dir);
  const runDir = path.join(layout.sweciDir, 'runs', 'test', `attempt-${++n}`);
  return {
    role,
    prompt: renderPrompt(role, promptPathsFor(layout)),
    promptFile: path.join(runDir, `${role}.prompt.md`),
    cwd: layout.appDir,
    env: {},
    timeoutMs: 60_000,
    logFile: path.join(runDir, `${role}.log`),
    ...extra,
  };
}

const custom = (command: string, extra: Partial<AgentSettings & { kind: 'custom' }> = {}): AgentSettings => ({ kind: 'custom', command, ...extra });

describe('CliAgentDriver with scripted agents', { skip: !posix && 'POSIX process tests' }, () => {
  let shared: Task;

  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-agents-')));
    repo = await TestRepo.create(path.join(tmp, 'lib'));
    const base = await repo.commit('base', {
      'src/lib/__init__.py': '',
      'src/lib/core.py': 'def add(a, b):\n    return a - b\n',
      'tests/test_core.py': 'from lib.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
    });
    const fixAdd = await repo.commit('fix add', {
      'src/lib/core.py': 'def add(a, b):\n    return a + b\n',
      'src/lib/old_helpers.py': 'X = 1\n',
    });
    const target = await repo.commit('add mul', {
      'src/lib/core.py': 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return a * b\n',
      'src/lib/old_helpers.py': null,
      'tests/test_core.py':
        'from lib.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\n' +
        'def test_mul():\n    from lib.core import mul\n    assert mul(2, 3) == 6\n\ndef test_kept():\n    assert True\n',
    });
    commits = [base, fixAdd, target];
    shared = await checkOut('shared');
  });

  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('the architect writes a parseable requirement.xml naming the failing tests; usage, log, live output', async () => {
    const req = request(shared, 'architect');
    const chunks: string[] = [];
    const driver = createDriver(custom(agent('architect.py')), { host: runtime });
    const r = await driver.run({ ...req, onOutput: (c) => chunks.push(c) });
    assert.equal(r.exitCode, 0);
    assert.equal(r.timedOut, false);
    assert.equal(r.cancelled, false);
    assert.equal(r.logFile, req.logFile);
    assert.deepEqual(r.usage, { inputTokens: req.prompt.length, outputTokens: 40 });
    assert.equal(r.command, `${agent('architect.py')} < ${quoteWord(req.promptFile)}`);
    assert.equal(await fs.readFile(req.promptFile, 'utf8'), req.prompt);

    const doc = (await validateRequirementFile(taskFolder(shared.dir).requirementFile)).result;
    assert.ok(doc.ok, JSON.stringify(doc));
    assert.equal(doc.items.length, 1);
    assert.deepEqual(doc.warnings, []);
    assert.match(doc.items[0].fields.acceptance?.text ?? '', /tests\/test_core\.py::test_add/);
    assert.match(doc.items[0].fields.acceptance?.text ?? '', /tests\/test_core\.py::test_mul/);

    const log = await fs.readFile(req.logFile, 'utf8');
    assert.match(log, /^# SWE-CI agent run\n/);
    assert.match(log, /# role: +architect\n/);
    assert.match(log, /architect: 2 non-passed test\(s\); wrote 1 requirement\(s\)/);
    assert.match(log, /<Execution Info>[\s\S]*"input": \d+[\s\S]*<\/Execution Info>/);
    assert.match(log, /# ended: +exit code 0 after [\d.]+ s\n# usage: +\d+ input tokens, 40 output tokens\n$/);
    assert.ok(chunks.join('').includes('architect: 2 non-passed'), 'live output was streamed');
    await fs.rm(taskFolder(shared.dir).requirementFile);
  });

  test('a custom command taking the prompt file as an argument', async () => {
    const req = request(shared, 'architect');
    const r = await createDriver(custom(`${agent('architect.py')} {promptFile}`, { promptVia: 'file' }), { host: runtime }).run(req);
    assert.equal(r.exitCode, 0);
    assert.equal(r.command, `${agent('architect.py')} ${quoteWord(req.promptFile)}`);
    assert.ok((await validateRequirementFile(taskFolder(shared.dir).requirementFile)).result.ok);
    await fs.rm(taskFolder(shared.dir).requirementFile);
  });

  test('a preset end to end: iFlow argv (-p <prompt>; no -y when not confined) and its usage format', async () => {
    const req = request(shared, 'architect');
    const executable = path.join(agentsDir, 'architect.py');
    const settings: AgentSettings = { kind: 'preset', preset: 'iflow', executable, model: 'glm-4.6' };
    const r = await createDriver(settings, { host: runtime }).run(req);
    assert.equal(r.exitCode, 0);
    assert.equal(r.usage?.inputTokens, req.prompt.length, 'the prompt arrived whole as one argument');
    // This runtime is not confined, so iFlow is not told to accept every action.
    assert.equal(r.command, `${quoteWord(executable)} --model glm-4.6 -p "$(cat ${quoteWord(req.promptFile)})"`);
    assert.ok(!r.command.includes('You are the architect'));
    assert.ok((await validateRequirementFile(taskFolder(shared.dir).requirementFile)).result.ok);
    await fs.rm(taskFolder(shared.dir).requirementFile);
  });

  test('the programmer applies the next human commit; pytest sees the gap shrink, twice', async () => {
    const task = await checkOut('programmer');
    const upstream = oracleLayout(task.record.oracleDir).upstreamDir;
    const firstParent = execFileSync('git', ['--git-dir', upstream, 'rev-list', '--first-parent', '--reverse', 'refs/sweci/base..refs/sweci/target'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    const shas = [execFileSync('git', ['--git-dir', upstream, 'rev-parse', 'refs/sweci/base'], { encoding: 'utf8' }).trim(), ...firstParent];
    assert.deepEqual(shas, commits);
    const env = { SWECI_SCRIPTED_UPSTREAM: upstream, SWECI_SCRIPTED_COMMITS: shas.join(',') };
    const driver = createDriver(custom(agent('programmer.py')), { host: runtime });
    const codeDir = taskFolder(task.dir).codeDir;

    const first = await driver.run(request(task, 'programmer', { env }));
    assert.equal(first.exitCode, 0, await fs.readFile(first.logFile, 'utf8'));
    assert.equal(await fs.readFile(path.join(codeDir, 'src/lib/core.py'), 'utf8'), 'def add(a, b):\n    return a + b\n');
    assert.equal(await fs.readFile(path.join(codeDir, 'src/lib/old_helpers.py'), 'utf8'), 'X = 1\n');
    assert.ok(first.usage?.outputTokens !== undefined && first.usage.outputTokens > 100);
    const mid = await runCurrentTests({ python: 'python3', timeoutMs: 120_000, format: 'junit', task: taskFolder(task.dir), record: task.record, runtime });
    assert.equal(mid.gap, 1);

    const second = await driver.run(request(task, 'programmer', { env }));
    assert.equal(second.exitCode, 0);
    assert.match(await fs.readFile(second.logFile, 'utf8'), /code matched commit 2\/3/);
    await assert.rejects(fs.access(path.join(codeDir, 'src/lib/old_helpers.py')), 'a file the commit deleted is deleted');
    const end = await runCurrentTests({ python: 'python3', timeoutMs: 120_000, format: 'junit', task: taskFolder(task.dir), record: task.record, runtime });
    assert.equal(end.gap, 0);
    assert.deepEqual(end.restoredTests, [], 'the programmer never touched tests/');

    const third = await driver.run(request(task, 'programmer', { env }));
    assert.equal(third.exitCode, 0);
    assert.match(await fs.readFile(third.logFile, 'utf8'), /nothing to apply/);
  });

  test('the programmer with a counter file outside the code folder', async () => {
    const task = await checkOut('counter');
    const state = path.join(tmp, `state-${n}`);
    const env = {
      SWECI_SCRIPTED_UPSTREAM: oracleLayout(task.record.oracleDir).upstreamDir,
      SWECI_SCRIPTED_COMMITS: commits.join(','),
      SWECI_SCRIPTED_STATE: state,
    };
    const driver = createDriver(custom(agent('programmer.py')), { host: runtime });
    assert.equal((await driver.run(request(task, 'programmer', { env }))).exitCode, 0);
    assert.equal(await fs.readFile(state, 'utf8'), '1');
    assert.equal((await driver.run(request(task, 'programmer', { env }))).exitCode, 0);
    assert.equal(await fs.readFile(state, 'utf8'), '2');
    assert.match(await fs.readFile(path.join(taskFolder(task.dir).codeDir, 'src/lib/core.py'), 'utf8'), /def mul/);
  });

  test('a hanging agent is killed on timeout with its child; its log is kept', async () => {
    const req = request(shared, 'architect', { timeoutMs: 1500 });
    const r = await createDriver(custom(agent('hang.py')), { host: runtime }).run(req);
    assert.equal(r.timedOut, true);
    assert.equal(r.cancelled, false);
    assert.equal(r.exitCode, null);
    const log = await fs.readFile(req.logFile, 'utf8');
    const m = /hang: pid=(\d+) child=(\d+)/.exec(log);
    assert.ok(m, log);
    assert.ok(await waitDead(Number(m[1])), 'the agent is dead');
    assert.ok(await waitDead(Number(m[2])), 'its child is dead');
    assert.match(log, /# ended: +timed out \(process tree killed\)/);
    assert.equal(r.usage?.outputTokens, 1, 'usage printed before the hang is still read');
  });

  test('cancelling kills the agent and its child', async () => {
    const controller = new AbortController();
    let pids: number[] = [];
    const req = request(shared, 'programmer', {
      signal: controller.signal,
      onOutput: (chunk) => {
        const m = /hang: pid=(\d+) child=(\d+)/.exec(chunk);
        if (m) {
          pids = [Number(m[1]), Number(m[2])];
          controller.abort();
        }
      },
    });
    const r = await createDriver(custom(agent('hang.py')), { host: runtime }).run(req);
    assert.equal(r.cancelled, true);
    assert.equal(pids.length, 2);
    for (const pid of pids) assert.ok(await waitDead(pid), `${pid} is dead`);
    assert.match(await fs.readFile(req.logFile, 'utf8'), /# ended: +cancelled/);
  });

  test('a failing agent returns its exit code; stderr is in the log', async () => {
    const req = request(shared, 'architect');
    const r = await createDriver(custom(agent('fail.py')), { host: runtime }).run(req);
    assert.equal(r.exitCode, 3);
    assert.equal(r.timedOut, false);
    assert.equal(r.usage?.outputTokens, 2);
    const log = await fs.readFile(req.logFile, 'utf8');
    assert.match(log, /model quota exceeded/);
    assert.match(log, /# ended: +exit code 3/);
  });

  test('an agent that writes nothing: exit 0, no requirement.xml', async () => {
    const r = await createDriver(custom(agent('no-output.py')), { host: runtime }).run(request(shared, 'architect'));
    assert.equal(r.exitCode, 0);
    assert.equal(r.usage?.outputTokens, 3);
    const doc = (await validateRequirementFile(taskFolder(shared.dir).requirementFile)).result;
    assert.ok(!doc.ok && doc.errors[0].code === 'missing-file');
  });

  test('tamper.py edits a test file; outside.py writes outside app/code', async () => {
    const task = await checkOut('misbehave');
    const layout = taskFolder(task.dir);
    assert.equal((await createDriver(custom(agent('tamper.py')), { host: runtime }).run(request(task, 'programmer'))).exitCode, 0);
    assert.match(await fs.readFile(path.join(layout.codeDir, 'tests/test_core.py'), 'utf8'), /test_tampered_by_agent/);
    const rerun = await runCurrentTests({ python: 'python3', timeoutMs: 120_000, format: 'junit', task: taskFolder(task.dir), record: task.record, runtime });
    assert.ok(
      rerun.restoredTests.some((f) => f.endsWith('test_core.py')),
      JSON.stringify(rerun.restoredTests),
    );
    assert.equal(rerun.gap, 2, 'the tampered test does not count');

    assert.equal((await createDriver(custom(agent('outside.py')), { host: runtime }).run(request(task, 'programmer'))).exitCode, 0);
    assert.equal(await fs.readFile(path.join(layout.appDir, 'stray.txt'), 'utf8'), 'written by outside.py\n');
    assert.equal(await fs.readFile(path.join(layout.sweciDir, 'stray'), 'utf8'), 'written by outside.py\n');
  });

  test('env values reach the agent but never the command, the log or the live output', async () => {
    const echo = `python3 -c "import os,sys; v=os.environ['SWECI_TEST_API_KEY']; print('key=' + v); print('reversed=' + v[::-1]); sys.stdout.flush()"`;
    const settings = custom(echo, { extraArgs: ['--api-key', SECRET] });
    const live: string[] = [];
    const req = request(shared, 'architect', { env: { SWECI_TEST_API_KEY: SECRET, SHORT: '1' }, onOutput: (c) => live.push(c) });
    const r = await createDriver(settings, { host: runtime }).run(req);
    assert.equal(r.exitCode, 0);
    assert.ok(!r.command.includes(SECRET), r.command);
    assert.match(r.command, /--api-key '\*\*\*'|--api-key \*\*\*/);
    const log = await fs.readFile(req.logFile, 'utf8');
    assert.ok(!log.includes(SECRET), 'the log never holds the value');
    assert.ok(!live.join('').includes(SECRET), 'nor does the live output');
    assert.match(log, /key=\*\*\*/);
    assert.ok(log.includes(`reversed=${[...SECRET].reverse().join('')}`), 'the agent did receive the value');
    assert.match(log, /# env: +SHORT, SWECI_TEST_API_KEY \(values hidden\)/);
  });

  test('a secret split across output chunks is still hidden', async () => {
    const slow = `python3 -c "import os,sys,time; v=os.environ['K']; [ (sys.stdout.write(c), sys.stdout.flush(), time.sleep(0.01)) for c in 'x' + v + 'y' ]"`;
    const req = request(shared, 'architect', { env: { K: SECRET } });
    const r = await createDriver(custom(slow), { host: runtime }).run(req);
    assert.equal(r.exitCode, 0);
    const log = await fs.readFile(req.logFile, 'utf8');
    assert.ok(log.includes('x***y'), log);
  });

  test('a missing executable is a user error naming what to install or change; the log says so', async () => {
    const req = request(shared, 'architect');
    await assert.rejects(
      createDriver({ kind: 'preset', preset: 'claude-code', executable: path.join(tmp, 'no-such-claude') }, { host: runtime }).run(req),
      (e: unknown) =>
        e instanceof UserError &&
        /Claude Code/.test(e.message) &&
        /npm install -g @anthropic-ai\/claude-code/.test(e.message) &&
        // The setting named is one that exists (presets have no executable setting).
        /the setting sweci\.architect\.agent\b/.test(e.message) &&
        e.setting === 'architect.agent',
    );
    assert.match(await fs.readFile(req.logFile, 'utf8'), /# could not start: Cannot run Claude Code/);
    await assert.rejects(
      createDriver(custom('sweci-no-such-agent --go'), { host: runtime }).run(request(shared, 'programmer')),
      (e: unknown) =>
        e instanceof UserError &&
        /custom programmer agent/.test(e.message) &&
        /sweci-no-such-agent/.test(e.message) &&
        /the setting sweci\.programmer\.customCommand\b/.test(e.message) &&
        e.setting === 'programmer.customCommand',
    );
  });

  test('a missing working folder is a user error', async () => {
    const req = request(shared, 'architect', { cwd: path.join(tmp, 'gone', 'app') });
    await assert.rejects(
      createDriver(custom(agent('architect.py')), { host: runtime }).run(req),
      (e: unknown) => e instanceof UserError && /does not exist/.test(e.message),
    );
  });

  test('labels; the human role has no driver', () => {
    assert.equal(new CliAgentDriver({ kind: 'preset', preset: 'codex' }, runtime).label, 'Codex CLI');
    assert.equal(createDriver(custom('/x/my-agent --fast'), { host: runtime }).label, 'custom: my-agent');
    assert.equal(createDriver(custom('python3 "/a b/architect.py" --x'), { host: runtime }).label, 'custom: architect.py', 'looks past the interpreter');
    assert.equal(createDriver(custom('node -e 1'), { host: runtime }).label, 'custom: node', 'an interpreter flag is not a program');
    assert.throws(() => createDriver({ kind: 'human' }, { host: runtime }), /human/);
  });
});
