import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { experimentLayout } from '../../../src/core/batch/experiment';
import { iterationOfDirName, taskFolder } from '../../../src/core/workspace/task-folder';

// The paths on disk are a format: folders checked out by earlier versions must still open.
test('a task folder names every path of the task under its root', () => {
  const root = path.join(path.sep, 'work', 'task');
  const task = taskFolder(root);
  const at = (...parts: string[]) => path.join(root, ...parts);
  assert.equal(task.root, root);
  assert.equal(task.codeDir, at('app', 'code'));
  assert.equal(task.summaryFile, at('app', 'non-passed', 'summary.jsonl'));
  assert.equal(task.requirementFile, at('app', 'requirement.xml'));
  assert.equal(task.taskFile, at('.sweci', 'task.json'));
  assert.equal(task.historyDir, at('.sweci', 'history.git'));
  assert.equal(task.scoringCodeDir, at('.sweci', 'scoring', 'code'));
  assert.equal(task.runsDir, at('.sweci', 'runs'));
  assert.equal(task.lockFile, at('.sweci', 'lock'));
  assert.equal(task.oversizedPathspec, at('.sweci', 'oversized.pathspec'));
  assert.deepEqual(task.current, {
    report: at('.sweci', 'reports', 'current.report.json'),
    run: at('.sweci', 'reports', 'current.run.json'),
    output: at('.sweci', 'reports', 'current.pytest-output.txt'),
  });
  assert.deepEqual(task.base, {
    report: at('.sweci', 'reports', 'base.report.json'),
    run: at('.sweci', 'reports', 'base.run.json'),
    output: at('.sweci', 'reports', 'base.pytest-output.txt'),
  });
  assert.equal(task.currentRawReportFile, at('.sweci', 'reports', 'pytest-out', 'raw-report'));
  assert.equal(task.selectedRawReportFile, at('.sweci', 'reports', 'selected-out', 'raw-report'));
  assert.equal(task.exportDir(new Date('2026-01-02T03:04:05.678Z')), at('.sweci', 'reports', 'export-2026-01-02T03-04-05-678'));
});

test("a run's layout sits in .sweci/runs/<run>", () => {
  const root = path.join(path.sep, 'work', 'task');
  const run = taskFolder(root).run('claude-1');
  const dir = path.join(root, '.sweci', 'runs', 'claude-1');
  const { iterationDir, ...paths } = run;
  assert.deepEqual(paths, {
    run: 'claude-1',
    dir,
    runFile: path.join(dir, 'run.json'),
    iterationsFile: path.join(dir, 'iteration.jsonl'),
    pendingDir: path.join(dir, 'pending'),
    lockFile: path.join(dir, 'lock'),
  });
  // An iteration's archive: iter-NNN, three digits at least, so the folders sort by name.
  assert.equal(iterationDir(7), path.join(dir, 'iter-007'));
  assert.equal(iterationDir(1234), path.join(dir, 'iter-1234'));
  assert.equal(iterationOfDirName('iter-007'), 7);
  assert.equal(iterationOfDirName('iter-1234'), 1234);
  for (const other of ['iter-7', 'iter-07x', 'pending', 'iter--01']) assert.equal(iterationOfDirName(other), undefined, other);
});

test('a run or task name that is not one plain segment is joined as path.join joins it', () => {
  const root = path.join(path.sep, 'work', 'task');
  const runs = path.join(root, '.sweci', 'runs');
  for (const name of ['claude-1', '..', '.', '', 'a/b', '../x', 'a//b', 'x/', '.hidden', '..x'])
    assert.equal(taskFolder(root).run(name).dir, path.join(runs, name), JSON.stringify(name));
  const experiment = experimentLayout(path.join(path.sep, 'work', 'runs'));
  for (const id of ['repo__task-1', '..', '.', 'a/b', '../x']) assert.equal(experiment.task(id).root, path.join(experiment.dir, id), JSON.stringify(id));
});

test('a task folder cannot be changed on its way through the core', () => {
  const task = taskFolder(path.join(path.sep, 'work', 'task'));
  assert.throws(() => {
    (task as { codeDir: string }).codeDir = '/elsewhere';
  }, TypeError);
  assert.throws(() => {
    (task.current as { report: string }).report = '/elsewhere';
  }, TypeError);
});
