// Agents that attack the loop through git (issue 9, attacks 4 and 7): filters, textconv and diff
// drivers named in app/code/.git/config or in the user's global config; a deleted or rewritten
// app/code/.git; another run's branch deleted and pruned. Real scripted agents, real git.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { createRun, runLoop, startRun } from '../../../src/core/loop/run-loop';

import { UserError } from '../../../src/core/util/errors';
import { DemoWorld, exists, git, historyGit, loopOptions, pytestSettings, pythonScript, scripted, type DemoTask } from './demo-fixture';

let world: DemoWorld;
let scripts: string;

const lines = (task: DemoTask, run: string) => readIterationRecords(taskFolder(task.taskDir).run(run).iterationsFile);
const inline = (name: string, env: Record<string, string> = {}) => pythonScript(path.join(scripts, name), { env });

describe('agents that attack the loop through git', () => {
  before(async () => {
    world = await DemoWorld.create('loop-hostile-git');
    scripts = world.scratch('scripts');
    await fs.mkdir(scripts, { recursive: true });
    // Names a filter, a textconv and an external diff for every file, defined in the working
    // repository's config and in the global config git reads ($XDG_CONFIG_HOME/git/config):
    // each command appends its name to MARKER if any git the loop runs calls it.
    await fs.writeFile(
      path.join(scripts, 'plant-drivers.py'),
      [
        'import os, subprocess',
        "marker = os.environ['MARKER']",
        'evil = lambda name: \'sh -c "echo %s >> %s; cat"\' % (name, marker)',
        "settings = {'filter.evil.clean': evil('clean'), 'filter.evil.smudge': evil('smudge'), 'filter.evil.required': 'true',",
        "            'diff.evil.textconv': evil('textconv'), 'diff.evil.command': evil('diff-command'), 'core.pager': evil('pager')}",
        'for key, value in settings.items():',
        "    subprocess.run(['git', '-C', 'code', 'config', key, value], check=True)",
        "xdg = os.path.join(os.environ['XDG_CONFIG_HOME'], 'git')",
        'os.makedirs(xdg, exist_ok=True)',
        "with open(os.path.join(xdg, 'config'), 'w') as f:",
        "    f.write('[filter \"evil\"]\\n\\tclean = %s\\n\\tsmudge = %s\\n[diff \"evil\"]\\n\\ttextconv = %s\\n' % (evil('global-clean'), evil('global-smudge'), evil('global-textconv')))",
        "open('code/.gitattributes', 'w').write('* filter=evil diff=evil\\n')",
        "open('code/README.md', 'a').write('plain text the agent wrote\\n')",
      ].join('\n') + '\n',
    );
    // Deletes the working repository, and tries to take another run's history with it.
    await fs.writeFile(
      path.join(scripts, 'wreck-history.py'),
      [
        'import shutil, subprocess',
        "for args in (['branch', '-D', 'sweci/keep'], ['reflog', 'expire', '--expire=now', '--all'], ['gc', '--prune=now', '--quiet']):",
        "    subprocess.run(['git', '-C', 'code'] + args)",
        "shutil.rmtree('code/.git')",
        "open('code/README.md', 'a').write('history wrecked\\n')",
      ].join('\n') + '\n',
    );
    // Replaces the working repository with one of its own: a fake history on the run's branch.
    await fs.writeFile(
      path.join(scripts, 'fake-history.py'),
      [
        'import shutil, subprocess',
        "shutil.rmtree('code/.git')",
        "run = lambda *a: subprocess.run(['git', '-C', 'code'] + list(a), check=True)",
        "run('init', '-q', '-b', 'sweci/fake')",
        "run('-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-q', '--allow-empty', '-m', 'iteration 1')",
        "open('code/README.md', 'a').write('fake history\\n')",
      ].join('\n') + '\n',
    );
  });
  after(async () => {
    await world.dispose();
  });

  test('filters, textconv and diff drivers the agent names never run; the commit and code.diff hold the bytes on disk', async () => {
    const task = await world.task();
    const marker = world.scratch('driver-marker');
    const xdg = world.scratch('xdg');
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = xdg;
    try {
      const roles = { architect: scripted('architect.py'), programmer: inline('plant-drivers.py', { MARKER: marker }) };
      // pytest-benchmark (installed here) runs git during pytest: the code under test's process, not the loop's.
      const pytest = { ...pytestSettings, env: { PYTEST_ADDOPTS: '-p no:benchmark' } };
      await startRun(loopOptions(task, 'drivers', roles, { iterations: 1, pytest }));
      // Read before this test runs git itself (which reads the planted global config).
      const ran = await fs.readFile(marker, 'utf8').catch(() => '');
      assert.equal(ran, '', `planted commands ran: ${ran.trim().split('\n').join(', ')}`);
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
      await fs.rm(xdg, { recursive: true, force: true });
    }
    const [, one] = await lines(task, 'drivers');
    const readme = await historyGit(task.taskDir, 'show', `${one.commit}:README.md`);
    assert.match(readme, /plain text the agent wrote\n$/, 'committed as written (no clean filter)');
    const diff = await fs.readFile(path.join(taskFolder(task.taskDir).run('drivers').iterationDir(1), 'code.diff'), 'utf8');
    assert.match(diff, /\n\+plain text the agent wrote\n/, 'code.diff is the real diff (no textconv, no external diff)');
    assert.match(diff, /\+\* filter=evil diff=evil/);
  });

  test('an agent that deletes app/code/.git and prunes branches loses nothing: every run continues, the working repository comes back', async () => {
    const task = await world.task();
    const keep = await startRun(loopOptions(task, 'keep', { architect: scripted('architect.py'), programmer: inline('fake-history.py') }, { iterations: 1 }));
    assert.equal(keep.recorded.length, 1);
    const keepCommit = keep.recorded[0].commit;

    await createRun(loopOptions(task, 'wreck', { architect: scripted('architect.py'), programmer: inline('wreck-history.py') }));
    const wreck = await runLoop(loopOptions(task, 'wreck', { architect: scripted('architect.py'), programmer: inline('wreck-history.py') }, { iterations: 2 }));
    assert.equal(wreck.recorded.length, 2, 'both iterations recorded although each deleted the repository');
    const [, w1, w2] = await lines(task, 'wreck');
    assert.equal((await historyGit(task.taskDir, 'rev-parse', `${w2.commit}~1`)).trim(), w1.commit, 'iteration 2 continues from iteration 1');
    assert.match(await historyGit(task.taskDir, 'show', `${w2.commit}:README.md`), /history wrecked\nhistory wrecked\n$/);

    // The other run's history is intact, and it continues from its own commit.
    assert.equal((await historyGit(task.taskDir, 'rev-parse', 'sweci/keep')).trim(), keepCommit);
    const again = await runLoop(loopOptions(task, 'keep', { architect: scripted('architect.py'), programmer: inline('fake-history.py') }, { iterations: 1 }));
    assert.equal(again.recorded.length, 1);
    assert.equal((await historyGit(task.taskDir, 'rev-parse', `${again.recorded[0].commit}~1`)).trim(), keepCommit);
    // The fake history the agent made is not the run's: the iteration's parent is the run's commit.
    assert.doesNotMatch(await historyGit(task.taskDir, 'log', '--format=%an', 'sweci/keep'), /^x$/m);

    // Deleted by hand between runs: the next call rebuilds it on the run's branch.
    const code = taskFolder(task.taskDir).codeDir;
    await fs.rm(path.join(code, '.git'), { recursive: true, force: true });
    await runLoop(loopOptions(task, 'keep', { architect: scripted('architect.py'), programmer: inline('fake-history.py') }, { iterations: 0 }));
    assert.equal((await git(code, 'rev-parse', '--abbrev-ref', 'HEAD')).trim(), 'sweci/keep');
    assert.equal((await git(code, 'rev-parse', 'HEAD')).trim(), again.recorded[0].commit);
    assert.equal((await git(code, 'status', '--porcelain')).trim(), '', 'the working repository matches the files');
  });

  test('a task from before the history store gets one from app/code/.git; without either, a clear error', async () => {
    const task = await world.task();
    const layout = taskFolder(task.taskDir);
    await fs.rm(layout.historyDir, { recursive: true, force: true });
    const info = await createRun(loopOptions(task, 'legacy', { architect: scripted('architect.py'), programmer: scripted('architect.py') }));
    assert.equal(info.baseCommit, task.record.baseCommit);
    assert.ok(await exists(path.join(layout.historyDir, 'objects')), 'the store was made');
    assert.equal((await historyGit(task.taskDir, 'rev-parse', 'sweci/legacy')).trim(), task.record.baseCommit);

    const lost = await world.task();
    const lostLayout = taskFolder(lost.taskDir);
    await fs.rm(lostLayout.historyDir, { recursive: true, force: true });
    await fs.rm(path.join(lostLayout.codeDir, '.git'), { recursive: true, force: true });
    await assert.rejects(
      createRun(loopOptions(lost, 'lost', { architect: scripted('architect.py'), programmer: scripted('architect.py') })),
      (err: unknown) => err instanceof UserError && /run history of .* is missing .*Check the task out again/.test(err.message),
    );
  });
});
