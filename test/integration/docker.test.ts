// In the real extension host, against the real engine: the demo task with its image.tar.gz is
// checked out through the command with the default settings (sweci.runtime "auto"), so the
// baseline, an iteration, Refresh and the human history all run in containers from its image.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DemoDataset } from '../../scripts/demo-dataset';
import { demoDatasetFixture } from '../harness/demo-dataset-fixture';
import { readIterationRecords } from '../../src/core/loop/iteration-record';
import { HUMAN_HISTORY_RUN } from '../../src/core/loop/run-name';
import { oracleLayout } from '../../src/core/workspace/layout';
import { DEMO_IMAGE, demoImageArchive, dockerForTests, ourContainers } from '../unit/helpers/docker';
import { agentsDir, api, scriptedAnswers, until } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('sweci');
const global = vscode.ConfigurationTarget.Global;
const AGENT_KEYS = ['architect.agent', 'architect.customCommand', 'programmer.agent', 'programmer.customCommand', 'programmer.env'];

suite('A task in its own Docker environment', function () {
  this.timeout(600_000);
  let taskDir: string;
  let demo: DemoDataset;

  suiteSetup(async () => {
    await dockerForTests();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    // The checkout suite (before this one in name order) leaves its task here: start empty.
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
    // The tier's demo dataset (built once, index.ts's fixture cache), with the demo image linked in.
    demo = await demoDatasetFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-docker-')), { imageArchive: demoImageArchive() });
  });

  suiteTeardown(async () => {
    const sweci = await api();
    for (const key of AGENT_KEYS) await cfg().update(key, undefined, global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sweci.releaseEnvironment();
    assert.deepEqual(await ourContainers(await dockerForTests()), [], 'closing the task removes every container');
    // Leave the workspace empty: the loop suite checks its own task out.
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
  });

  test('Check Out Task loads the image and runs the baseline in it; the Task view and the status bar say so', async () => {
    const sweci = await api();
    const result = await sweci.checkOutTask({ source: 'dataset', datasetDir: demo.datasetDir, taskId: demo.taskId, targetDir: taskDir });
    assert.ok(result);
    assert.equal(result.current?.run.kind, 'ran', result.current?.run.reason);
    assert.equal(result.current?.gap, demo.expectedGap, 'the same gap as the dataset measured on this machine');
    assert.match(result.current?.run.command ?? '', /^python -m pytest tests .*--rootdir=\/app\/code/);
    const recorded = JSON.parse(fs.readFileSync(taskFolder(taskDir).environmentFile, 'utf8')) as { runtime: string; image: string };
    assert.deepEqual([recorded.runtime, recorded.image], ['docker', DEMO_IMAGE]);

    const row = await until('the Task view to show the runtime', () =>
      sweci.taskInfoRows().find((r) => r.label === 'Runtime' && r.description.startsWith('docker')),
    );
    // The row fits the side bar's default width; the whole description is in its tooltip.
    assert.match(row.description, /^docker · sweci\/demo-env/);
    assert.ok(row.tooltip.split('\n').includes(`docker · ${DEMO_IMAGE}`), row.tooltip);
    // The bar may still show the task an earlier suite left open (its image, maybe Docker too): wait for this task's image.
    const bar = await until('the status bar to show this task in Docker', () =>
      sweci.statusBar().tooltip.includes(DEMO_IMAGE) ? sweci.statusBar() : undefined,
    );
    assert.match(bar.text, /\$\(vm\) docker/);
    assert.match(bar.tooltip, new RegExp(`Runtime: docker · ${DEMO_IMAGE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // The image has no pytest-json-report: our plugin streamed the report (the same format), and the view says so.
    assert.match(result.current?.run.command ?? '', / -p sweci_pytest_report --sweci-stream$/);
    const run = sweci.taskInfoRows().find((r) => r.label === 'Last pytest run');
    assert.ok(run);
    assert.match(run.tooltip, /Report: SWE-CI's report plugin \(pytest-json-report's format\)/);
    assert.doesNotMatch(run.description, /lossy/);
  });

  test('Run Iteration with scripted agents records an iteration whose pytest ran in the container', async () => {
    const sweci = await api();
    const upstream = scriptedAnswers(oracleLayout(sweci.taskState()!.record.oracleDir).upstreamDir);
    await cfg().update('architect.agent', 'custom', global);
    await cfg().update('architect.customCommand', `python3 ${path.join(agentsDir, 'architect.py')}`, global);
    await cfg().update('programmer.agent', 'custom', global);
    await cfg().update('programmer.customCommand', `python3 ${path.join(agentsDir, 'programmer.py')}`, global);
    await cfg().update('programmer.env', { SWECI_SCRIPTED_UPSTREAM: upstream, SWECI_SCRIPTED_COMMITS: demo.commits.join(',') }, global);
    await sweci.setActiveRun('docker-it');
    await vscode.commands.executeCommand('sweci.runIteration');
    const records = await readIterationRecords(taskFolder(taskDir).run('docker-it').iterationsFile);
    assert.equal(records.length, 2, 'line 0 (the base) and iteration 1');
    assert.equal(records[0].gap, demo.expectedGap);
    assert.ok(records[1].gap >= 0 && records[1].gap < records[0].gap, `pytest ran and the gap shrank (${records[0].gap} → ${records[1].gap})`);
    const last = JSON.parse(fs.readFileSync(taskFolder(taskDir).current.run, 'utf8')) as { command: string };
    assert.match(last.command, /--rootdir=\/app\/code/, 'the iteration ran pytest in the container');
  });

  test('Run Tests and Refresh runs in the container', async () => {
    const sweci = await api();
    const before = JSON.parse(fs.readFileSync(taskFolder(taskDir).current.run, 'utf8')) as { finishedAt: string };
    await vscode.commands.executeCommand('sweci.refresh');
    const after = JSON.parse(fs.readFileSync(taskFolder(taskDir).current.run, 'utf8')) as { finishedAt: string; command: string; kind: string };
    assert.notEqual(after.finishedAt, before.finishedAt, 'pytest ran again');
    assert.equal(after.kind, 'ran');
    assert.match(after.command, /--rootdir=\/app\/code/);
    assert.ok(sweci.nonPassedRows().length > 0);

    // JUnit, when chosen, is said to be lossy where the run is shown.
    await cfg().update('pytest.reportFormat', 'junit', global);
    try {
      await vscode.commands.executeCommand('sweci.refresh');
      const row = await until('the Task view to say the report was JUnit', () =>
        sweci.taskInfoRows().find((r) => r.label === 'Last pytest run' && r.description.endsWith('lossy')),
      );
      assert.match(row.tooltip, /Report: JUnit XML, which is lossy/);
    } finally {
      await cfg().update('pytest.reportFormat', undefined, global);
    }
  });

  test('Record Human History replays every commit in the container, ending at gap 0', async () => {
    const sweci = await api();
    const mark = sweci.lastMessages().at(-1);
    await cfg().update('history.commits', 0, global);
    try {
      await vscode.commands.executeCommand('sweci.recordHumanHistory');
    } finally {
      await cfg().update('history.commits', undefined, global);
    }
    // What a person was told: a replay that stopped early must say why (this names it when it does).
    const shown = sweci.lastMessages();
    const said = shown.slice(mark ? shown.indexOf(mark) + 1 : 0);
    assert.ok(
      said.some((m) => m.text.startsWith(`Human history recorded as the run ${HUMAN_HISTORY_RUN}: ${demo.commits.length - 1} developer commits`)),
      JSON.stringify(said),
    );
    const records = await readIterationRecords(taskFolder(taskDir).run(HUMAN_HISTORY_RUN).iterationsFile);
    assert.equal(records.length, demo.commits.length);
    assert.equal(records[0].gap, demo.expectedGap);
    assert.equal(records[records.length - 1].gap, 0);
    assert.ok(
      records.every((r) => r.gap >= 0),
      'pytest ran for every commit',
    );
  });
});
