// A path on a custom agent's command line, or in sweci.sandboxReadablePaths, is shown to every
// sandboxed command (issue 29): one that is, or contains, the dataset, an experiment folder, an
// oracle or another task is refused before anything runs, with a message that names it and
// says what to do. A narrower path (a file of the user's) still runs. The real loop, real files.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { startRun } from '../../../src/core/loop/run-loop';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { EXPERIMENT_FILE } from '../../../src/core/workspace/layout';
import { AGENTS_DIR, DemoWorld, SANDBOX, exists, loopOptions, pythonScript, scripted, type DemoTask } from './demo-fixture';

let world: DemoWorld;
let task: DemoTask;

/** The scripted Architect, handed `extra` on its command line after a word of its own (it ignores both). */
const architectWith = (extra: string) => {
  const role = pythonScript(path.join(AGENTS_DIR, 'architect.py'));
  if (role.settings.kind === 'custom') role.settings.command += ` --notes ${JSON.stringify(extra)}`;
  return role;
};

describe('paths a custom command or sweci.sandboxReadablePaths would show', () => {
  before(async () => {
    world = await DemoWorld.create('exposed-paths');
    task = await world.task();
  });
  after(() => world?.dispose());

  test("a custom command given the dataset's path, an oracle, or a folder above them is refused with a message that names it", async () => {
    const dataset = task.record.task.source.kind === 'dataset' ? task.record.task.source.datasetDir : assert.fail('a dataset task');
    const cases: Array<[string, RegExp]> = [
      [dataset, /names .*dataset, which is the dataset \(every task's code\.zip\).*Pass the file your agent needs instead/],
      [task.record.oracleDir, /which is the task's oracle/],
      [world.tmp, new RegExp(`names ${world.tmp.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, which contains `)],
    ];
    for (const [p, pattern] of cases) {
      const roles = { architect: architectWith(p), programmer: scripted('edit.py') };
      await assert.rejects(startRun(loopOptions(task, 'probe', roles, { iterations: 1 })), (err: Error) => {
        assert.equal(err.name, 'UserError');
        assert.match(err.message, /architect's custom command \(sweci\.architect\.customCommand, --architect-command\)/);
        assert.match(err.message, pattern);
        return true;
      });
      assert.equal(await exists(taskFolder(task.taskDir).run('probe').runFile), false, `refused before anything ran (${p})`);
    }
    // The Programmer's command too, and through a link to the dataset.
    const link = world.scratch('link-to-dataset');
    await fs.symlink(dataset, link);
    const roles = { architect: scripted('architect.py'), programmer: pythonScript(path.join(AGENTS_DIR, 'edit.py')) };
    if (roles.programmer.settings.kind === 'custom') roles.programmer.settings.command += ` --notes ${link}`;
    await assert.rejects(
      startRun(loopOptions(task, 'probe', roles, { iterations: 1 })),
      /programmer's custom command .* names .*link-to-dataset.*, which is the dataset/,
    );
  });

  test('an experiment folder, and another task beside this one, are refused', async () => {
    const experiment = world.scratch('experiment');
    await fs.mkdir(experiment);
    await fs.writeFile(path.join(experiment, EXPERIMENT_FILE), '{}');
    const inside = await world.task();
    const taskDir = path.join(experiment, 't1');
    await fs.rename(inside.taskDir, taskDir);
    const t = { ...inside, taskDir };
    for (const [p, pattern] of [
      [experiment, /which is the experiment folder/],
      [path.dirname(task.taskDir), /which contains /],
    ] as const) {
      const roles = { architect: architectWith(p), programmer: scripted('edit.py') };
      await assert.rejects(startRun(loopOptions(t, 'probe', roles, { iterations: 1 })), pattern);
    }
    // Beside the first task (not in an experiment), another task folder is the other task.
    const other = await world.task();
    await assert.rejects(
      startRun(loopOptions(task, 'probe', { architect: architectWith(other.taskDir), programmer: scripted('edit.py') }, { iterations: 1 })),
      /which is another task/,
    );
  });

  test('sweci.sandboxReadablePaths that holds the dataset is refused', async () => {
    const dataset = task.record.task.source.kind === 'dataset' ? task.record.task.source.datasetDir : assert.fail('a dataset task');
    const wide = new LocalRuntime({ orphanGraceMs: 500, bwrap: SANDBOX, readable: [AGENTS_DIR, path.dirname(dataset)] });
    const roles = { architect: scripted('architect.py'), programmer: scripted('edit.py') };
    await assert.rejects(
      startRun(loopOptions(task, 'probe', roles, { iterations: 1, runtime: wide, agentRuntimes: { host: wide } })),
      /sweci\.sandboxReadablePaths \(--sandbox-readable\) lists .*, which contains .*List a narrower path/,
    );
    assert.equal(await exists(taskFolder(task.taskDir).run('probe').runFile), false);
  });

  test('sweci.sandboxWritablePaths that holds an oracle or the experiment is refused: every step could change it', async () => {
    const wide = new LocalRuntime({ orphanGraceMs: 500, bwrap: SANDBOX, readable: [AGENTS_DIR], writable: [path.dirname(task.record.oracleDir)] });
    const roles = { architect: scripted('architect.py'), programmer: scripted('edit.py') };
    await assert.rejects(
      startRun(loopOptions(task, 'probe-writable', roles, { iterations: 1, runtime: wide, agentRuntimes: { host: wide } })),
      /sweci\.sandboxWritablePaths \(--sandbox-writable\) lists .*, which contains .*could change it.*List a narrower path/,
    );
    assert.equal(await exists(taskFolder(task.taskDir).run('probe-writable').runFile), false);
  });

  test("a file of the user's on the command line is accepted, and the run goes on", async () => {
    const notes = path.join(world.scratch('notes'), 'notes.txt');
    await fs.mkdir(path.dirname(notes));
    await fs.writeFile(notes, 'the agent may read this\n');
    const roles = { architect: architectWith(notes), programmer: scripted('edit.py') };
    await startRun(loopOptions(task, 'narrow', roles, { iterations: 1 }));
    const lines = await readIterationRecords(taskFolder(task.taskDir).run('narrow').iterationsFile);
    assert.equal(lines.length, 2, 'one iteration ran');
  });
});
