// In the real extension host: the CI loop driven through the commands, with scripted agents
// (real executables run by the real CLI driver) configured in settings, and a human turn.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { demoDatasetFixture } from '../harness/demo-dataset-fixture';
import { readIterationRecords } from '../../src/core/loop/iteration-record';
import { readRunSummary } from '../../src/core/loop/run-store';
import { oracleLayout } from '../../src/core/workspace/layout';
import { agentsDir, api, scriptedAnswers, until } from './helpers';
import { decodeProtobufSpans, type WireSpan } from '../unit/telemetry/otlp-protobuf';
import { processTag } from '../unit/runtime/process-helpers';

const cfg = () => vscode.workspace.getConfiguration('sweci');
const global = vscode.ConfigurationTarget.Global;

function pidsOf(pattern: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** Processes started under this extension host whose command line matches, by pid (another window's are not its). */
function descendantsMatching(pattern: RegExp): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s(.*)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const under = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) if (!under.has(r.pid) && under.has(r.ppid)) grew = !!under.add(r.pid);
  }
  return rows.filter((r) => r.pid !== process.pid && under.has(r.pid) && pattern.test(r.args)).map((r) => r.pid);
}

/** A process that exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** An OTLP/HTTP collector on loopback: it keeps the protobuf spans posted to /v1/traces. */
async function startCollector(): Promise<{ url: string; spans(): WireSpan[]; requests(): number; close(): Promise<void> }> {
  const bodies: Buffer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') bodies.push(Buffer.concat(chunks));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => bodies.flatMap((b) => decodeProtobufSpans(b)),
    requests: () => bodies.length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

suite('The CI loop through the commands', function () {
  this.timeout(300_000);
  let taskDir: string;
  let run: string;

  suiteSetup(async () => {
    const sweci = await api();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const demo = await demoDatasetFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-loop-')));
    // The checkout suite left the demo task here; checking out again is idempotent.
    const result = await sweci.checkOutTask({ source: 'dataset', datasetDir: demo.datasetDir, taskId: demo.taskId, targetDir: taskDir });
    assert.ok(result);
    await cfg().update('architect.agent', 'custom', global);
    await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'architect.py')}`, global);
    await cfg().update('programmer.agent', 'custom', global);
    await cfg().update('programmer.customCommand', `python3 ${path.join(agentsDir, 'programmer.py')}`, global);
    await cfg().update(
      'programmer.env',
      { SWECI_SCRIPTED_UPSTREAM: scriptedAnswers(oracleLayout(result.record.oracleDir).upstreamDir), SWECI_SCRIPTED_COMMITS: demo.commits.join(',') },
      global,
    );
    run = 'scripted-it';
    await sweci.setActiveRun(run);
  });

  suiteTeardown(async () => {
    for (const key of [
      'architect.agent',
      'architect.customCommand',
      'architect.timeoutSeconds',
      'architect.maxTries',
      'programmer.agent',
      'programmer.customCommand',
      'programmer.env',
    ]) {
      await cfg().update(key, undefined, global);
    }
  });

  test("the Task view's Architect and Programmer rows follow the settings: each role's endpoint, and restricted when not confined", async () => {
    const sweci = await api();
    const role = (label: string) => sweci.taskInfoRows().find((r) => r.label === label);
    const agents = () => {
      const a = role('Architect');
      const p = role('Programmer');
      return a && p ? { description: `${a.description} · ${p.description}`, tooltip: `${a.tooltip}\n${p.tooltip}` } : undefined;
    };
    await until('the rows name the custom agents', () => (agents()?.description === 'custom: architect.py · custom: programmer.py' ? true : undefined));
    try {
      await cfg().update('architect.agent', 'codex', global);
      await cfg().update('programmer.agent', 'qwen', global);
      await cfg().update('agents.baseUrl', 'http://127.0.0.1:9', global);
      await cfg().update('sandbox', 'off', global);
      const row = await until('the rows follow', () => (agents()?.description.startsWith('codex') ? agents() : undefined));
      assert.equal(row.description, 'codex · restricted · qwen · restricted');
      assert.match(
        row.tooltip,
        /Architect: codex\n {2}endpoint: http:\/\/127\.0\.0\.1:9\/v1 \(OpenAI Responses\)\n {2}allowed: codex's own workspace-write sandbox \(not confined\)/,
      );
      assert.match(
        row.tooltip,
        /Programmer: qwen\n {2}endpoint: http:\/\/127\.0\.0\.1:9\/v1 \(OpenAI Chat Completions\)\n {2}allowed: file edits only: shell commands are denied \(not confined\)/,
      );
    } finally {
      await cfg().update('architect.agent', 'custom', global);
      await cfg().update('programmer.agent', 'custom', global);
      await cfg().update('agents.baseUrl', undefined, global);
      await cfg().update('sandbox', undefined, global);
    }
  });

  test('Run Iteration records iteration 1 with both agents, and the Iterations view shows it', async () => {
    const sweci = await api();
    await vscode.commands.executeCommand('sweci.runIteration');
    const records = await readIterationRecords(taskFolder(taskDir).run(run).iterationsFile);
    assert.equal(records.length, 2, 'line 0 (the base) and iteration 1');
    const [base, first] = records;
    assert.equal(base.iteration, 0);
    assert.equal(base.gap, 42);
    assert.equal(first.iteration, 1);
    assert.ok(first.gap >= 0 && first.gap < base.gap, `the gap shrank (${base.gap} → ${first.gap})`);
    assert.equal(first.architect?.kind, 'agent');
    assert.equal(first.programmer?.kind, 'agent');
    assert.ok(first.architect?.input_tokens !== undefined, 'usage reported by the agent is recorded');

    const rows = await sweci.iterationRows();
    const row = rows.find((r) => r.run === run);
    assert.ok(row, `the run ${run} is listed`);
    assert.deepEqual(
      row.iterations.map((i) => i.label),
      ['#1', 'base'],
    );
    assert.match(row.iterations[0].description, new RegExp(`gap ${first.gap}`));
    for (const child of ['requirement.xml', 'code changes', 'test report', 'pytest output']) {
      assert.ok(row.iterations[0].children.includes(child), `iteration 1 offers ${child}: ${row.iterations[0].children.join(', ')}`);
    }
    assert.ok(
      row.iterations[0].children.some((c) => c.startsWith('architect')),
      'the architect log is offered',
    );
    // The tree shows the new gap too.
    assert.equal(sweci.nonPassedRows().length, first.gap);
  });

  test("I'll Be the Programmer: the agent architects, the user edits and submits, the iteration is recorded as human", async () => {
    const sweci = await api();
    const pending = vscode.commands.executeCommand('sweci.beProgrammer');
    const waiting = await until('the human step', () => sweci.humanWaiting());
    assert.equal(waiting.role, 'programmer');
    assert.equal(waiting.iteration, 2);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, taskFolder(taskDir).requirementFile, 'requirement.xml is opened for the user');

    const init = path.join(taskFolder(taskDir).codeDir, 'src', 'tinyinventory', '__init__.py');
    fs.writeFileSync(init, fs.readFileSync(init, 'utf8').replace(/__version__ = "[^"]*"/, '__version__ = "1.0.0"'));
    await vscode.commands.executeCommand('sweci.submitIteration');
    await pending;

    const records = await readIterationRecords(taskFolder(taskDir).run(run).iterationsFile);
    const second = records[2];
    assert.equal(second.iteration, 2);
    assert.equal(second.programmer?.kind, 'human');
    assert.equal(second.architect?.kind, 'agent');
    assert.ok(second.gap < records[1].gap, 'the version fix passed test_version');
    assert.ok(!sweci.nonPassedRows().some((r) => r.nodeid === 'tests/test_package.py::test_version'));
    assert.equal(sweci.humanWaiting(), undefined);
  });

  test("I'll Be the Architect: an invalid requirement.xml is sent back, a valid one goes to the Programmer agent", async () => {
    const sweci = await api();
    const requirement = taskFolder(taskDir).requirementFile;
    const pending = vscode.commands.executeCommand('sweci.beArchitect');
    const first = await until('the human architect step', () => sweci.humanWaiting());
    assert.equal(first.role, 'architect');
    assert.match(fs.readFileSync(requirement, 'utf8'), /<location>/, 'a skeleton is offered');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, requirement);

    // Submitting the skeleton as offered is pressing Submit too early: it is sent back.
    await vscode.commands.executeCommand('sweci.submitIteration');
    const hint = /<location> still holds the skeleton's hint/;
    await until('the ask after the unedited skeleton', () => (sweci.humanWaiting()?.problems ?? []).some((p) => hint.test(p)) || undefined);

    fs.writeFileSync(requirement, '<requirements><requirement>unclosed');
    await vscode.commands.executeCommand('sweci.submitIteration');
    // The loop checks the document and asks again.
    await until('the ask after the unclosed document', () => {
      const problems = sweci.humanWaiting()?.problems ?? [];
      return (problems.length > 0 && !problems.some((p) => hint.test(p))) || undefined;
    });

    fs.writeFileSync(
      requirement,
      '<requirements>\n  <requirement id="1">\n    <location>src/tinyinventory/inventory.py: Inventory.low_stock</location>\n' +
        '    <description>Items exactly at the threshold are left out.</description>\n    <contract>low_stock(n) lists items with quantity at or below n.</contract>\n' +
        '    <acceptance>tests/test_inventory.py low-stock tests pass.</acceptance>\n  </requirement>\n</requirements>\n',
    );
    await vscode.commands.executeCommand('sweci.submitIteration');
    await pending;
    const records = await readIterationRecords(taskFolder(taskDir).run(run).iterationsFile);
    const last = records[records.length - 1];
    assert.equal(last.architect?.kind, 'human');
    assert.equal(last.programmer?.kind, 'agent');
    assert.match(
      fs.readFileSync(path.join(taskFolder(taskDir).run(run).dir, `iter-${String(last.iteration).padStart(3, '0')}`, 'requirement.xml'), 'utf8'),
      /Inventory\.low_stock/,
      'the human requirement is archived',
    );
  });

  test('Stop kills a hanging agent and records nothing', async () => {
    // Its own tag on the command line: the unit tier's hanging agents run beside this window.
    const tag = processTag('it-stop');
    const mine = () => pidsOf(tag);
    await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'hang.py')} ${tag}`, global);
    let settled = false;
    const pending = Promise.resolve(vscode.commands.executeCommand('sweci.runIteration')).finally(() => (settled = true));
    try {
      const before = fs.readFileSync(taskFolder(taskDir).run(run).iterationsFile, 'utf8');
      await until('the hanging agent', () => mine().length > 0 || undefined, 90_000);
      // From the Stop (the agent's start-up is the machine's business): the agent never ends by itself.
      const stoppedAt = Date.now();
      await vscode.commands.executeCommand('sweci.stop');
      await pending;
      assert.ok(Date.now() - stoppedAt < 60_000, 'Stop ends the step at once');
      await until('the agent process tree to be gone', () => mine().length === 0 || undefined, 30_000);
      assert.equal(fs.readFileSync(taskFolder(taskDir).run(run).iterationsFile, 'utf8'), before, 'nothing partial is recorded');
    } finally {
      // A failure above must not leave the hanging agent to the tests after this one.
      if (!settled) {
        await vscode.commands.executeCommand('sweci.stop');
        await pending.catch(() => undefined);
      }
      await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'architect.py')}`, global);
    }
  });

  test('one step at a time: Run Architect, Run Programmer, then Run Tests records the iteration', async () => {
    const file = taskFolder(taskDir).run(run).iterationsFile;
    const before = (await readIterationRecords(file)).length;
    const requirement = taskFolder(taskDir).requirementFile;

    await vscode.commands.executeCommand('sweci.runArchitect');
    assert.ok(fs.existsSync(requirement), 'the Architect wrote requirement.xml');
    let summary = await readRunSummary(taskFolder(taskDir), run);
    assert.equal(summary?.pending?.lastCompletedStep, 'architect');
    assert.equal((await readIterationRecords(file)).length, before, 'nothing recorded yet');

    await vscode.commands.executeCommand('sweci.runProgrammer');
    summary = await readRunSummary(taskFolder(taskDir), run);
    assert.equal(summary?.pending?.lastCompletedStep, 'programmer');
    assert.equal((await readIterationRecords(file)).length, before, 'still nothing recorded');

    await vscode.commands.executeCommand('sweci.runTests');
    const records = await readIterationRecords(file);
    assert.equal(records.length, before + 1, 'Run Tests completed the iteration');
    assert.equal((await readRunSummary(taskFolder(taskDir), run))?.pending, undefined);
    assert.equal(records[records.length - 1].programmer?.kind, 'agent');
  });

  test("the Architect's prompt template setting is used, with this task's real paths", async () => {
    const template = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-tpl-')), 'architect.md');
    fs.writeFileSync(template, 'MY OWN ARCHITECT PROMPT\nRead `{{summaryFile}}` and write `{{requirementFile}}`.\n');
    await cfg().update('architect.promptTemplateFile', template, global);
    try {
      await vscode.commands.executeCommand('sweci.runArchitect');
      const prompt = fs.readFileSync(path.join(taskFolder(taskDir).run(run).pendingDir, 'architect.prompt.md'), 'utf8');
      assert.match(prompt, /^MY OWN ARCHITECT PROMPT/);
      assert.ok(prompt.includes(`\`${taskFolder(taskDir).summaryFile}\``), 'the placeholder became the real path');
      await vscode.commands.executeCommand('sweci.runIteration');
      assert.equal((await readRunSummary(taskFolder(taskDir), run))?.pending, undefined, 'the iteration was completed');
    } finally {
      await cfg().update('architect.promptTemplateFile', undefined, global);
    }
  });

  test('an API key from secret storage reaches an agent that names it and calls its model itself, as an environment variable masked in its log', async () => {
    const sweci = await api();
    const secret = 'sk-test-7f3a9b2c4d5e6f70';
    await sweci.setApiKey('SWECI_PROBE_KEY', secret);
    await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'env-probe.py')}`, global);
    // The key rule (core/agents/key-rule.ts): only a role that names the key, on a route where it
    // calls its model itself (the open network, no endpoint), is given it.
    await cfg().update('architect.apiKeys', ['SWECI_PROBE_KEY'], global);
    await cfg().update('agents.network', 'open', global);
    try {
      await vscode.commands.executeCommand('sweci.runArchitect');
      const pendingDir = taskFolder(taskDir).run(run).pendingDir;
      const log = fs.readFileSync(path.join(pendingDir, 'architect-try-1.log'), 'utf8');
      assert.match(log, new RegExp(`SWECI_PROBE_KEY is set, ${secret.length} characters`), 'the agent got the key');
      assert.ok(!log.includes(secret), 'the value is masked in the agent log');
      for (const file of ['run.json', 'iteration.jsonl']) {
        assert.ok(!fs.readFileSync(path.join(taskFolder(taskDir).run(run).dir, file), 'utf8').includes(secret), `${file} holds no secret`);
      }
      const settings = JSON.stringify(vscode.workspace.getConfiguration('sweci'));
      assert.ok(!settings.includes(secret), 'settings hold no secret');
    } finally {
      await sweci.clearApiKey('SWECI_PROBE_KEY');
      await cfg().update('architect.apiKeys', undefined, global);
      await cfg().update('agents.network', undefined, global);
      await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'architect.py')}`, global);
    }
  });

  test('Run Loop goes on until every target test passes', async () => {
    const sweci = await api();
    await vscode.commands.executeCommand('sweci.runLoop');
    const records = await readIterationRecords(taskFolder(taskDir).run(run).iterationsFile);
    const last = records[records.length - 1];
    assert.equal(last.gap, 0, `solved: ${records.map((r) => r.gap).join(' → ')}`);
    for (let i = 1; i < records.length; i++) assert.equal(records[i].iteration, i, 'one line per iteration, in order');
    assert.equal(sweci.nonPassedRows().length, 0);
    const row = (await sweci.iterationRows()).find((r) => r.run === run)!;
    assert.match(row.description, /solved/);
  });

  test('Stop stops Record Human History: its pytest is killed, the commits it recorded stay whole, and no other call starts meanwhile', async () => {
    const sweci = await api();
    const history = taskFolder(taskDir).run('human-history').iterationsFile;
    const lines = () => (fs.existsSync(history) ? fs.readFileSync(history, 'utf8').split('\n').filter(Boolean).length : 0);
    const before = lines();
    // pytest on a commit, in the replay's scratch folder (never the task's code folder).
    const replayPytest = /-m pytest .*--rootdir=[^ ]*sweci-history-/;
    const pending = vscode.commands.executeCommand('sweci.recordHumanHistory');
    const running = await until(
      'pytest of a commit after one was recorded',
      () => (lines() > before && descendantsMatching(replayPytest).length > 0 ? descendantsMatching(replayPytest) : undefined),
      120_000,
    );

    // The replay holds the one slot: a Run Iteration is refused with the loop's own words.
    const loopFile = taskFolder(taskDir).run(run).iterationsFile;
    const loopLines = fs.existsSync(loopFile) ? fs.readFileSync(loopFile, 'utf8') : undefined;
    await vscode.commands.executeCommand('sweci.runIteration');
    const refusal = sweci.lastMessages().at(-1);
    assert.match(refusal?.text ?? '', /^Run human-history is in progress\. Stop it first, or wait for it\.$/);
    assert.equal(fs.existsSync(loopFile) ? fs.readFileSync(loopFile, 'utf8') : undefined, loopLines, 'no iteration ran');

    const stopped = Date.now();
    await vscode.commands.executeCommand('sweci.stop');
    await pending;
    assert.ok(Date.now() - stopped < 15_000, `Stop ends the replay at once (${Date.now() - stopped} ms)`);
    await until(
      'the killed pytest to be gone',
      () => (running.every((pid) => !alive(pid)) && descendantsMatching(replayPytest).length === 0) || undefined,
      10_000,
    );
    const shown = sweci.lastMessages();
    const said = shown.slice(shown.indexOf(refusal!) + 1).map((m) => m.text);
    assert.ok(!said.includes('No SWE-CI run is in progress.'), 'Stop found the replay');
    assert.match(said.at(-1) ?? '', /^SWE-CI: Record Human History cancelled\./);

    // Every line parses (a damaged one would throw), one per commit, in position order, each with its report.
    const text = fs.readFileSync(history, 'utf8');
    assert.ok(text.endsWith('\n'), 'no half-written last line');
    const records = await readIterationRecords(history);
    assert.equal(records.length, text.split('\n').filter(Boolean).length);
    assert.ok(records.length > before && records.length < 11, `some commits recorded, not all (${records.length})`);
    assert.deepEqual(
      records.map((r) => r.iteration),
      [...records.map((r) => r.iteration)].sort((a, b) => a - b),
    );
    for (const r of records) {
      assert.equal(r.pytest_error, undefined, `line ${r.iteration} is a finished pytest run, not the killed one`);
      assert.ok(
        fs.existsSync(path.join(taskFolder(taskDir).run('human-history').iterationDir(r.iteration), 'report.json')),
        `line ${r.iteration} has its report`,
      );
    }
  });

  test('Record Human History replays the upstream commits as the run human-history', async () => {
    const sweci = await api();
    await vscode.commands.executeCommand('sweci.recordHumanHistory');
    const records = await readIterationRecords(taskFolder(taskDir).run('human-history').iterationsFile);
    assert.equal(records.length, 11, 'the base and its 10 first-parent successors up to the target');
    assert.equal(records[records.length - 1].gap, 0, 'the target passes its own tests');
    for (const r of records.slice(1)) assert.equal(r.programmer?.kind ?? 'human', 'human');
    const row = (await sweci.iterationRows()).find((r) => r.run === 'human-history');
    assert.ok(row, 'the replay is listed in the Iterations view');
    assert.equal(row.iterations.length, 11);
  });
  test('Run Iteration on a solved run says why nothing ran; Clear API Key with no keys says so', async () => {
    const sweci = await api();
    await sweci.setActiveRun(run);
    const before = fs.readFileSync(taskFolder(taskDir).run(run).iterationsFile, 'utf8');
    await vscode.commands.executeCommand('sweci.runIteration');
    assert.equal(fs.readFileSync(taskFolder(taskDir).run(run).iterationsFile, 'utf8'), before, 'nothing ran');
    const said = sweci.lastMessages().at(-1);
    assert.equal(said?.level, 'info');
    assert.match(said?.text ?? '', new RegExp(`${run} is already solved \\(gap 0`));

    await vscode.commands.executeCommand('sweci.clearApiKey');
    assert.match(sweci.lastMessages().at(-1)?.text ?? '', /No API keys are stored/);
  });

  test("with sweci.telemetry.otlpEndpoint set, an iteration's spans reach that collector; a new endpoint takes the next run's, none stops them", async () => {
    const sweci = await api();
    const first = await startCollector();
    const second = await startCollector();
    const fresh = 'otel-it';
    try {
      await cfg().update('telemetry.otlpEndpoint', first.url, global);
      await sweci.setActiveRun(fresh);
      await vscode.commands.executeCommand('sweci.runIteration');
      // The batch processor sends within seconds of the spans' end.
      const spans = await until('the first collector gets the iteration span', () => {
        const all = first.spans();
        return all.some((x) => x.name === 'sweci.iteration 1') ? all : undefined;
      });
      const iteration = spans.find((x) => x.name === 'sweci.iteration 1');
      assert.equal(iteration?.attributes['sweci.run'], fresh);
      assert.equal(iteration?.resource['service.name'], 'sweci');
      const pytest = spans.find((x) => x.name === 'sweci.pytest' && x.parentSpanId === iteration?.spanId);
      assert.ok(pytest, `the pytest run is a child of the iteration: ${spans.map((x) => x.name).join(', ')}`);
      const records = await readIterationRecords(taskFolder(taskDir).run(fresh).iterationsFile);
      assert.equal(pytest.attributes['sweci.gap'], records[1].gap);

      await cfg().update('telemetry.otlpEndpoint', second.url, global);
      await vscode.commands.executeCommand('sweci.runIteration');
      await until('the second collector gets iteration 2', () => second.spans().some((x) => x.name === 'sweci.iteration 2') || undefined);
      assert.ok(!first.spans().some((x) => x.name === 'sweci.iteration 2'), 'the first collector no longer gets spans');

      // Off for iteration 3, on again for iteration 4: the collector gets 4's spans and none of 3's
      // (a tracing left running would have sent 3's before 4's).
      await cfg().update('telemetry.otlpEndpoint', undefined, global);
      await vscode.commands.executeCommand('sweci.runIteration');
      await cfg().update('telemetry.otlpEndpoint', second.url, global);
      await vscode.commands.executeCommand('sweci.runIteration');
      assert.equal((await readIterationRecords(taskFolder(taskDir).run(fresh).iterationsFile)).length, 5, 'iterations 3 and 4 ran');
      await until('the second collector gets iteration 4', () => second.spans().some((x) => x.name === 'sweci.iteration 4') || undefined);
      assert.ok(!second.spans().some((x) => x.name === 'sweci.iteration 3'), 'no span of iteration 3, run with telemetry off');
    } finally {
      await cfg().update('telemetry.otlpEndpoint', undefined, global);
      await sweci.setActiveRun(run);
      await first.close();
      await second.close();
    }
  });

  test('a missing agent at the first step leaves no run behind, and the error names the real setting', async () => {
    const sweci = await api();
    const fresh = 'missing-agent-it';
    await cfg().update('architect.customCommand', 'sweci-no-such-agent --go', global);
    try {
      await sweci.setActiveRun(fresh);
      await vscode.commands.executeCommand('sweci.runIteration');
      assert.equal(await readRunSummary(taskFolder(taskDir), fresh), undefined, 'the run is not listed');
      assert.ok(!fs.existsSync(taskFolder(taskDir).run(fresh).dir), 'its folder is gone (no pending iteration either)');
      const error = sweci
        .lastMessages()
        .filter((m) => m.level === 'error')
        .at(-1);
      assert.match(error?.text ?? '', /sweci-no-such-agent/);
      assert.match(error?.text ?? '', /the setting sweci\.architect\.customCommand\b/);
      assert.ok(!(await sweci.iterationRows()).some((r) => r.run === fresh), 'the Iterations view does not list it');
      assert.equal(sweci.activeRun(), fresh, 'the chosen name is kept for the next try');
    } finally {
      await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'architect.py')}`, global);
      await sweci.setActiveRun(run);
    }
  });
});
