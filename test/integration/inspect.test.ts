// In the real extension host: the iteration view steps along a run, an iteration's code changes
// open in the multi-file diff editor with the files its commit changed (read-only sweci:
// documents holding each side's bytes), requirement.xml diffs use the archived files, and
// comparing an agent's iteration with the developers' shows the right left and right contents.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { demoDatasetFixture } from '../harness/demo-dataset-fixture';
import type { AgentSettings } from '../../src/core/agents/agent-driver';
import { replayHumanHistory } from '../../src/core/history/replay-history';
import { readIterationRecords, type IterationRecord } from '../../src/core/loop/iteration-record';
import type { RoleSetup } from '../../src/core/loop/loop-types';
import { startRun } from '../../src/core/loop/run-loop';
import { ARCHIVE } from '../../src/core/loop/run-store';
import { LocalRuntime } from '../../src/core/runtime/local-runtime';
import { oracleLayout } from '../../src/core/workspace/layout';
import { agentsDir, api, until } from './helpers';

const RUN = 'inspect-it';
const HISTORY = 'human-history';

function scripted(script: string, env: Record<string, string> = {}): RoleSetup {
  const settings: AgentSettings = { kind: 'custom', command: `python3 ${path.join(agentsDir, script)}`, promptVia: 'stdin', timeoutSec: 120, maxTries: 2, env };
  return { settings };
}

/** `git diff --name-only` between two commits of a git folder: the oracle for the diff editor's file list. */
function changedFiles(gitDir: string, a: string, b: string, leaveOutTests = false): string[] {
  const out = execFileSync('git', ['--git-dir', gitDir, 'diff', '--name-only', '--no-renames', '-z', a, b], { encoding: 'utf8' });
  return out
    .split('\0')
    .filter(Boolean)
    .filter((p) => !leaveOutTests || !/^(tests?|\.git[^/]*)(\/|$)/.test(p))
    .sort();
}

function show(gitDir: string, commit: string, file: string): string {
  try {
    return execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}

/** The open tab whose label is `title`, and its input. */
function tabTitled(title: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === title);
}

/** Waits for the tab titled `title`; on timeout the error lists the tabs that are open. */
async function tabOpened(title: string, timeoutMs = 15_000): Promise<vscode.Tab> {
  try {
    return await until(`the tab "${title}"`, () => tabTitled(title), timeoutMs);
  } catch (err) {
    const open = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => `${JSON.stringify(t.label)} (${t.input?.constructor?.name})`);
    throw new Error(`${err instanceof Error ? err.message : String(err)}; open tabs: ${open.join(', ')}`);
  }
}

interface MultiDiffInput {
  textDiffs: { original: vscode.Uri; modified: vscode.Uri }[];
}

suite('Stepping and comparing iterations', function () {
  this.timeout(400_000);
  let taskDir: string;
  let records: IterationRecord[];
  let history: IterationRecord[];
  let upstreamDir: string;

  suiteSetup(async () => {
    const sweci = await api();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const demo = await demoDatasetFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-inspect-')));
    const result = await sweci.checkOutTask({ source: 'dataset', datasetDir: demo.datasetDir, taskId: demo.taskId, targetDir: taskDir });
    assert.ok(result);
    upstreamDir = oracleLayout(result.record.oracleDir).upstreamDir;
    const env = { SWECI_SCRIPTED_UPSTREAM: upstreamDir, SWECI_SCRIPTED_COMMITS: demo.commits.join(',') };
    const pytest = { python: 'python3', timeoutMs: 120_000, format: 'junit' as const };
    await startRun({
      task: taskFolder(taskDir),
      run: RUN,
      roles: { architect: scripted('architect.py'), programmer: scripted('programmer.py', env) },
      runtime: new LocalRuntime(),
      pytest,
      iterations: 3,
    });
    await replayHumanHistory({ task: taskFolder(taskDir), runtime: new LocalRuntime(), count: 'all', ...pytest });
    records = await readIterationRecords(taskFolder(taskDir).run(RUN).iterationsFile);
    history = await readIterationRecords(taskFolder(taskDir).run(HISTORY).iterationsFile);
    assert.ok(records.length >= 3, `the run recorded its iterations (${records.length})`);
    assert.ok(history.length >= 3, `the replay recorded the developers' commits (${history.length})`);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The next suites expect the workspace as the runner made it: empty.
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
  });

  test('Open Iteration shows an iteration; Next / Previous move the one view along the run, and stop at its ends', async () => {
    const sweci = await api();
    await vscode.commands.executeCommand('sweci.openIteration', { run: RUN, iteration: 1 });
    assert.equal(sweci.iterationView().shown, `${RUN} #1`);
    const d1 = sweci.iterationView().details;
    assert.ok(d1?.kind === 'iteration');
    assert.equal(d1.details.record.commit, records[1].commit);
    assert.equal(d1.details.newlyRegressed.length, records[1].regressions.length);
    assert.equal(d1.details.requirement?.text, fs.readFileSync(path.join(taskFolder(taskDir).run(RUN).iterationDir(1), ARCHIVE.requirement), 'utf8'));
    // The tests it newly passed: passed now, not at the base (the demo's programmer fixes some at each step).
    assert.equal(d1.details.newlyPassing.length, (records[1].passed ?? 0) - (records[0].passed ?? 0) + records[1].regressions.length);

    // The Non-passed view follows: the tests as they were at #1 (its gap), until asked for the current code.
    await until('the Non-passed view to follow', () => (sweci.nonPassedIteration() === `${RUN} #1` ? true : undefined), 10_000);
    assert.equal(sweci.nonPassedRows().length, records[1].gap);
    assert.match(
      sweci.nonPassedDescription() ?? '',
      new RegExp(`^at ${RUN} #1: ${records[1].passed} / ${records[1].target_passed} passed · gap ${records[1].gap}$`),
    );
    await vscode.commands.executeCommand('sweci.showCurrentNonPassed');
    assert.equal(sweci.nonPassedIteration(), undefined);
    assert.equal(sweci.nonPassedRows().length, sweci.taskState()?.entries.length);
    await vscode.commands.executeCommand('sweci.followIterationView');
    assert.equal(sweci.nonPassedIteration(), `${RUN} #1`);

    await vscode.commands.executeCommand('sweci.nextIteration');
    assert.equal(sweci.iterationView().shown, `${RUN} #2`);
    await until('the Non-passed view to follow to #2', () => (sweci.nonPassedIteration() === `${RUN} #2` ? true : undefined), 10_000);
    assert.equal(sweci.nonPassedRows().length, records[2].gap);
    await sweci.iterationViewReceive({ type: 'step', direction: 1 });
    assert.equal(sweci.iterationView().shown, `${RUN} #3`);
    await vscode.commands.executeCommand('sweci.previousIteration');
    assert.equal(sweci.iterationView().shown, `${RUN} #2`);
    await until('the Iterations view to follow', () => sweci.iterationsSelection().includes(`${RUN} #2`) || undefined, 10_000);

    // At the run's last iteration Next says why and stays.
    const last = records[records.length - 1].iteration;
    await vscode.commands.executeCommand('sweci.openIteration', { run: RUN, iteration: last });
    const why = await vscode.commands.executeCommand<string | undefined>('sweci.nextIteration');
    assert.match(why ?? '', /last iteration/);
    assert.equal(sweci.iterationView().shown, `${RUN} #${last}`);

    // A malformed message from the webview is dropped.
    const before = sweci.iterationView().received.length;
    await sweci.iterationViewReceive({ type: 'open-file', index: -1 });
    await sweci.iterationViewReceive({ type: 'open-file', path: '/etc/passwd' });
    assert.equal(sweci.iterationView().received.length, before);
  });

  test('Code Changes opens the multi-file diff editor with exactly the files the iteration’s commit changed, each side read-only from git', async () => {
    const store = taskFolder(taskDir).historyDir;
    const opened = await vscode.commands.executeCommand<{ title: string; changes: { path: string }[] }>('sweci.openCodeChanges', { run: RUN, iteration: 2 });
    const expected = changedFiles(store, records[1].commit, records[2].commit);
    assert.ok(expected.length > 0, 'the demo programmer changed files');
    assert.deepEqual(
      opened.changes.map((c) => c.path),
      expected,
    );
    // The multi-file diff editor's tab adds the file count to the title.
    const tab = await tabOpened(`${opened.title} (${expected.length} file${expected.length === 1 ? '' : 's'})`);
    const input = tab.input as Partial<MultiDiffInput>;
    assert.ok(Array.isArray(input.textDiffs), `a multi-file diff tab (${tab.input?.constructor?.name})`);
    assert.deepEqual(input.textDiffs.map((d) => d.modified.path.slice(1)).sort(), expected);
    for (const d of input.textDiffs) {
      assert.equal(d.modified.scheme, 'sweci');
      const file = d.modified.path.slice(1);
      const left = await vscode.workspace.openTextDocument(d.original);
      const right = await vscode.workspace.openTextDocument(d.modified);
      assert.equal(left.getText(), show(store, records[1].commit, file), `${file} before`);
      assert.equal(right.getText(), show(store, records[2].commit, file), `${file} after`);
    }
  });

  test('requirement.xml changes open side by side from the archive, read-only', async () => {
    const sweci = await api();
    await vscode.commands.executeCommand('sweci.openIteration', { run: RUN, iteration: 2 });
    await sweci.iterationViewReceive({ type: 'open-requirement-diff' });
    const title = `requirement.xml ${RUN} #1 ↔ ${RUN} #2`;
    const tab = await tabOpened(title);
    assert.ok(tab.input instanceof vscode.TabInputTextDiff);
    const archive = (k: number) => fs.readFileSync(path.join(taskFolder(taskDir).run(RUN).iterationDir(k), ARCHIVE.requirement), 'utf8');
    assert.equal((await vscode.workspace.openTextDocument(tab.input.original)).getText(), archive(1));
    assert.equal((await vscode.workspace.openTextDocument(tab.input.modified)).getText(), archive(2));
    assert.equal(tab.input.modified.scheme, 'sweci', 'a record is not opened as an editable file');
  });

  test('Compare with Selected: the developers’ last commit against the agent’s #1 shows their scores, the tests they differ on, and the code each holds', async () => {
    const sweci = await api();
    // The scripted programmer replays the developers' commits, so the same position would hold
    // the same code: compare the developers' last commit with the agent's first iteration.
    const k = history[history.length - 1].iteration;
    const j = 1;
    await vscode.commands.executeCommand('sweci.selectForCompare', { run: HISTORY, iteration: k });
    const comparison = await vscode.commands.executeCommand<{
      left: { label: string };
      right: { label: string };
      onlyLeft: string[];
      onlyRight: string[];
      testsCompared: boolean;
    }>('sweci.compareWithSelected', { run: RUN, iteration: j });
    assert.equal(sweci.iterationView().shown, `${HISTORY} #${k} ↔ ${RUN} #${j}`);
    assert.ok(comparison.testsCompared);
    // Each side's passed count equals the other's plus what only it passes, minus what only the other passes.
    const h = history[k];
    const a = records[j];
    assert.equal((h.passed ?? 0) - comparison.onlyLeft.length, (a.passed ?? 0) - comparison.onlyRight.length);

    await sweci.iterationViewReceive({ type: 'open-code-changes' });
    const title = `${HISTORY} #${k} ↔ ${RUN} #${j} (tests/ left out)`;
    const tab = await until(
      'the comparison’s diff editor',
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.startsWith(`${title} (`)),
      15_000,
    );
    const input = tab.input as Partial<MultiDiffInput>;
    assert.ok(Array.isArray(input.textDiffs) && input.textDiffs.length > 0, 'the developers’ and the agent’s code differ');
    assert.equal(tab.label, `${title} (${input.textDiffs.length} file${input.textDiffs.length === 1 ? '' : 's'})`);
    for (const d of input.textDiffs) {
      const file = d.modified.path.slice(1);
      assert.ok(!/^tests?\//.test(file), `${file}: tests are left out of a comparison with a replay`);
      assert.equal(
        (await vscode.workspace.openTextDocument(d.original)).getText(),
        show(upstreamDir, h.commit, file),
        `${file}: left is the developers’ commit`,
      );
      assert.equal(
        (await vscode.workspace.openTextDocument(d.modified)).getText(),
        show(taskFolder(taskDir).historyDir, a.commit, file),
        `${file}: right is the agent’s`,
      );
    }

    // A replay has no requirement.xml: the view says so instead of opening an empty diff.
    await sweci.iterationViewReceive({ type: 'open-requirement-diff' });
    assert.equal(tabTitled(`requirement.xml ${HISTORY} #${k} ↔ ${RUN} #${j}`), undefined);

    // Previous / Next move both sides together; at a run's end neither moves, and it says why.
    await vscode.commands.executeCommand('sweci.previousIteration');
    assert.equal(sweci.iterationView().shown, `${HISTORY} #${k - 1} ↔ ${RUN} base`); // j − 1 is the base run
    await vscode.commands.executeCommand('sweci.nextIteration');
    assert.equal(sweci.iterationView().shown, `${HISTORY} #${k} ↔ ${RUN} #${j}`);
    await vscode.commands.executeCommand('sweci.nextIteration');
    assert.equal(sweci.iterationView().shown, `${HISTORY} #${k} ↔ ${RUN} #${j}`);
    assert.match(sweci.lastMessages().at(-1)?.text ?? '', new RegExp(`${HISTORY} #${k} is its run's last iteration`));
  });
});
