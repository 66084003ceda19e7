// In the real extension host: check out the demo task through the command, then read the
// Non-passed tree through the extension's API and compare it with what the core computes.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { demoDatasetFixture } from '../harness/demo-dataset-fixture';
import { loadReport } from '../../src/core/checkout/report-store';
import { nonPassedIds } from '../../src/core/gap/non-passed';
import { oracleLayout } from '../../src/core/workspace/layout';
import type { SweciApi } from '../extension/test-api';
import { api } from './helpers';

function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the integration run opens a workspace folder');
  return folder.uri.fsPath;
}

suite('Check out a task', function () {
  this.timeout(300_000);
  let datasetDir: string;
  let taskId: string;
  let expectedGap: number;

  suiteSetup(async () => {
    const demo = await demoDatasetFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-dataset-')));
    datasetDir = demo.datasetDir;
    taskId = demo.taskId;
    expectedGap = demo.expectedGap;
  });

  test('the command checks out the demo task into the open (empty) folder and the tree shows the core non-passed set', async () => {
    const sweci = await api();
    const dir = workspaceDir();
    assert.deepEqual(fs.readdirSync(dir), [], 'the test workspace starts empty');

    const result = await vscode.commands.executeCommand<Awaited<ReturnType<SweciApi['checkOutTask']>>>('sweci.checkoutTask', {
      source: 'dataset',
      datasetDir,
      taskId,
      targetDir: dir,
    });
    assert.ok(result, 'the command returns the checkout result');
    assert.equal(result.current?.run.kind, 'ran');

    const layout = taskFolder(dir);
    const current = await loadReport(layout.current.report);
    const target = await loadReport(oracleLayout(result.record.oracleDir).targetReportFile);
    assert.ok(current && target, 'both reports are on disk');
    const coreSet = new Set(nonPassedIds(current, target));
    assert.ok(coreSet.size >= 15, `the demo task shows at least 15 non-passed tests (got ${coreSet.size})`);
    assert.equal(coreSet.size, expectedGap, 'the measured gap equals the dataset test_gap');

    const rows = sweci.nonPassedRows();
    assert.deepEqual(new Set(rows.map((r) => r.nodeid)), coreSet, 'tree rows = core non-passed set');
    assert.equal(rows.length, coreSet.size, 'no test is listed twice');
    for (const row of rows) assert.ok(row.nodeid.startsWith(`${row.file}::`), `${row.nodeid} is grouped under ${row.file}`);
    assert.deepEqual(new Set(rows.map((r) => r.kind)), new Set(['failed', 'error', 'not-collected']), 'all three kinds are shown');

    // Kind, reason and traceback head are shown on each row.
    const setupError = rows.find((r) => r.kind === 'error' && r.description.startsWith('setup:'));
    assert.ok(setupError, 'an error at setup is described as such');
    assert.match(setupError.tooltip, /\*\*Error at setup\*\*/);
    assert.match(setupError.tooltip, /```/, 'the tooltip holds the head of the traceback');
    const failed = rows.find((r) => r.kind === 'failed')!;
    assert.match(failed.tooltip, /\*\*Failed\*\*/);
    assert.ok(failed.description.length > 0, 'a failed test shows its error line');
    const notCollected = rows.find((r) => r.kind === 'not-collected')!;
    assert.match(notCollected.tooltip, /Not collected/);

    const summary = fs
      .readFileSync(layout.summaryFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { test: string });
    assert.deepEqual(new Set(summary.map((l) => l.test)), coreSet, 'summary.jsonl lists the same tests');

    const counts = sweci.taskState()?.counts;
    assert.ok(counts);
    assert.equal(sweci.nonPassedDescription(), `${counts.passedNow} / ${counts.passedByTarget} passed · gap ${coreSet.size}`);
    assert.equal(counts.passedNow + counts.gap, counts.passedByTarget);

    // No oracle file is under the workspace.
    assert.ok(!path.resolve(result.record.oracleDir).startsWith(path.resolve(dir) + path.sep));
  });

  test('clicking a failed test opens its file at the test', async () => {
    const sweci = await api();
    const row = sweci.nonPassedRows().find((r) => r.kind === 'failed');
    assert.ok(row?.command, 'a failed test row has a click command');
    await vscode.commands.executeCommand(row.command.command, ...row.command.arguments);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.equal(editor.document.uri.fsPath, path.join(taskFolder(workspaceDir()).codeDir, row.file));
    const name = row.nodeid.split('::').pop()!.replace(/\[.*$/, '');
    const line = editor.document.lineAt(editor.selection.active.line).text;
    assert.match(line, new RegExp(`def ${name}\\b`), `the cursor is on the definition of ${name}`);
  });

  test('checking out the same task into the same folder again is idempotent', async () => {
    const sweci = await api();
    const dir = workspaceDir();
    const before = fs.readFileSync(taskFolder(dir).taskFile, 'utf8');
    await sweci.checkOutTask({ source: 'dataset', datasetDir, taskId, targetDir: dir });
    assert.equal(fs.readFileSync(taskFolder(dir).taskFile, 'utf8'), before);
    assert.equal(sweci.nonPassedRows().length, expectedGap);
  });

  test('Refresh re-runs pytest and keeps the tree in step with the code', async () => {
    const sweci = await api();
    const layout = taskFolder(workspaceDir());
    const runFile = path.join(layout.reportsDir, 'current.run.json');
    const before = JSON.parse(fs.readFileSync(runFile, 'utf8')) as { finishedAt: string };
    await vscode.commands.executeCommand('sweci.refresh');
    const after = JSON.parse(fs.readFileSync(runFile, 'utf8')) as { finishedAt: string; kind: string };
    assert.equal(after.kind, 'ran');
    assert.notEqual(after.finishedAt, before.finishedAt, 'a new pytest run was recorded');
    assert.equal(sweci.nonPassedRows().length, expectedGap);

    // The user fixes one thing: after Refresh that test leaves the tree and the gap drops by one.
    const init = path.join(layout.codeDir, 'src', 'tinyinventory', '__init__.py');
    fs.writeFileSync(init, fs.readFileSync(init, 'utf8').replace('__version__ = "0.3.0"', '__version__ = "1.0.0"'));
    await vscode.commands.executeCommand('sweci.refresh');
    const ids = sweci.nonPassedRows().map((r) => r.nodeid);
    assert.ok(!ids.includes('tests/test_package.py::test_version'), 'the fixed test is gone');
    assert.equal(ids.length, expectedGap - 1);
    assert.match(sweci.nonPassedDescription() ?? '', new RegExp(`gap ${expectedGap - 1}$`));

    // Put the base back for the suites that follow (the loop starts from the base).
    fs.writeFileSync(init, fs.readFileSync(init, 'utf8').replace('__version__ = "1.0.0"', '__version__ = "0.3.0"'));
    await sweci.refresh();
    assert.equal(sweci.nonPassedRows().length, expectedGap);
  });

  test('a test file the user changed is put back from the target before the run', async () => {
    const sweci = await api();
    const layout = taskFolder(workspaceDir());
    const testFile = path.join(layout.codeDir, 'tests', 'test_package.py');
    const original = fs.readFileSync(testFile, 'utf8');
    fs.writeFileSync(testFile, 'def test_version():\n    assert True\n');
    await sweci.refresh();
    assert.equal(fs.readFileSync(testFile, 'utf8'), original, "tests/ is the target's again");
  });

  test('when pytest cannot run, the view says so and keeps the last report', async () => {
    const sweci = await api();
    const layout = taskFolder(workspaceDir());
    const init = path.join(layout.codeDir, 'src', 'tinyinventory', '__init__.py');
    const good = fs.readFileSync(init, 'utf8');
    const rowsBefore = sweci.nonPassedRows().map((r) => r.nodeid);
    try {
      fs.writeFileSync(init, 'def broken(:\n');
      await sweci.refresh();
      const state = sweci.taskState();
      assert.equal(state?.lastRun?.kind, 'did-not-run');
      assert.match(sweci.nonPassedMessage() ?? '', /pytest exited with code [2-5] \(.*\): SyntaxError: .*; see its output\. Showing the previous report\./);
      assert.deepEqual(
        sweci.nonPassedRows().map((r) => r.nodeid),
        rowsBefore,
        'the last report stays on screen',
      );
      const output = fs.readFileSync(path.join(layout.reportsDir, 'current.pytest-output.txt'), 'utf8');
      assert.match(output, /SyntaxError/, "pytest's output is kept");
    } finally {
      fs.writeFileSync(init, good);
    }
    await sweci.refresh();
    assert.equal(sweci.taskState()?.lastRun?.kind, 'ran');
    assert.equal(sweci.nonPassedMessage(), undefined);
  });

  test('bad input gives a clear error and writes nothing', async () => {
    const sweci = await api();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-bad-'));
    const target = path.join(elsewhere, 'task');
    await assert.rejects(
      sweci.checkOutTask({ source: 'git', repoPath: taskFolder(workspaceDir()).codeDir, baseRef: '--upload-pack=x', targetRef: 'HEAD', targetDir: target }),
      /starts with "-", so git would read it as an option/,
    );
    await assert.rejects(sweci.checkOutTask({ source: 'dataset', datasetDir, taskId: 'no-such-task', targetDir: target }), /no-such-task is not in/);
    assert.deepEqual(fs.readdirSync(elsewhere), [], 'nothing was written');
  });
});
