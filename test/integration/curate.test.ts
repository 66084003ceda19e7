// In the real extension host: Find Tasks in This Repository… on a repository built by code fills
// the Candidate Tasks view (a kept span, a dropped one with its reason), and a candidate's
// Check Out on This Machine makes it a git-pair task whose gap is the oracle's new test; its
// Build Environment and Check Out builds the oracle's image on the real engine (FROM the set-up's
// base image, pip reading a wheel folder built by code) and checks the span out with pytest in it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckOutResult } from '../../src/core/checkout/check-out-task';
import type { MinedRepository } from '../../src/extension/curate/candidates-tree';
import { taskFolder } from '../../src/core/workspace/task-folder';
import { curateRepository, type CurateRepository } from '../harness/curate-repository';
import { curateBaseImage, dockerForTests, ourContainers } from '../unit/helpers/docker';
import { writeWheel } from '../unit/curate/wheel-fixture';
import { api } from './helpers';

suite('Find tasks in a repository', function () {
  this.timeout(300_000);
  let repo: CurateRepository;
  let scratch: string;

  suiteSetup(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-curate-'));
    repo = await curateRepository(path.join(scratch, 'toy'));
  });
  suiteTeardown(async () => {
    const cfg = vscode.workspace.getConfiguration('sweci');
    for (const key of ['curate.baseImage', 'curate.findLinks']) await cfg.update(key, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test('mining lists the kept span and the dropped one with its reason; Check Out on This Machine checks the kept one out', async () => {
    const sweci = await api();
    const mined = await vscode.commands.executeCommand<MinedRepository>('sweci.findTasks', { repoPath: repo.dir });
    assert.equal(mined.commits, 5);

    const rows = sweci.candidateRows();
    const id = (base: string, oracle: string) => `${base.slice(0, 12)}-${oracle.slice(0, 12)}`;
    assert.deepEqual(
      rows.map((r) => r.id),
      [id(repo.kept.base, repo.kept.oracle), mined.candidates.find((c) => c.oracle === repo.droppedOracle)?.id],
      'the kept span first, then the dropped one',
    );
    const [kept, dropped] = rows;
    assert.equal(kept.label, `${repo.kept.base.slice(0, 7)} → ${repo.kept.oracle.slice(0, 7)}`);
    assert.match(kept.description, /^2 days · 3 commits · \d+ changed \/ \d+ source lines · ended by \+click$/);
    assert.equal(kept.contextValue, 'candidate');
    assert.match(dropped.description, /^dropped: \d+ changed lines, fewer than --min-changed-lines 1000$/);
    assert.equal(dropped.contextValue, 'candidate-dropped');
    assert.equal(sweci.candidatesDescription(), '1 of 2 spans kept · 5 commits');
    // As mining went: the view emptied, then showed each span as the walk found it (oldest
    // first, newest on top, lines still being counted), then the measured list.
    const snapshots = sweci.candidateSnapshots();
    let start = snapshots.length - 1;
    while (start > 0 && snapshots[start].length > 0) start--;
    const during = snapshots.slice(start, -1).map((rows) => rows.map((r) => `${r.contextValue} ${r.id}`));
    const found = (c: { id: string }) => `span-found ${c.id}`;
    const [first, second] = [...mined.candidates].sort((a, b) => a.oracleIndex - b.oracleIndex);
    assert.deepEqual(during, [[], [found(first)], [found(second), found(first)]]);
    assert.match(snapshots[start + 1][0].description, /^2 days · 3 commits · counting lines… · ended by \+click$/);

    const node = { type: 'candidate', repoDir: mined.dir, candidate: mined.candidates.find((c) => c.oracle === repo.kept.oracle) };
    const targetDir = path.join(scratch, 'task');
    const result = await vscode.commands.executeCommand<CheckOutResult>('sweci.checkOutCandidate', node, { targetDir });
    assert.ok(result, 'the command returns the checkout result');
    assert.equal(result.record.task.baseSha, repo.kept.base);
    assert.equal(result.record.task.targetSha, repo.kept.oracle);
    const run = result.current?.run;
    assert.equal(run?.kind, 'ran', `pytest ran on the base on this machine${run?.kind === 'did-not-run' ? `, not: ${run.reason}` : ''}`);
    assert.equal(result.current?.gap, 1, "the oracle's new test is the gap");
  });

  test("Build Environment and Check Out builds the oracle's image and checks the span out with pytest in it", async () => {
    const conn = await dockerForTests();
    const baseImage = await curateBaseImage(conn);
    const sweci = await api();
    // The oracle declares requests: pip finds it in the wheel folder only (this machine reaches no index).
    const wheels = path.join(scratch, 'wheels');
    await writeWheel(wheels, { name: 'requests', version: '2.0', files: { 'requests/__init__.py': '' } });
    const cfg = vscode.workspace.getConfiguration('sweci');
    await cfg.update('curate.baseImage', baseImage, vscode.ConfigurationTarget.Global);
    await cfg.update('curate.findLinks', wheels, vscode.ConfigurationTarget.Global);

    const mined = await vscode.commands.executeCommand<MinedRepository>('sweci.findTasks', { repoPath: repo.dir });
    const node = { type: 'candidate', repoDir: mined.dir, candidate: mined.candidates.find((c) => c.oracle === repo.kept.oracle) };
    const targetDir = path.join(scratch, 'task-in-image');
    let image: string | undefined;
    try {
      const result = await vscode.commands.executeCommand<CheckOutResult>('sweci.buildCandidateEnvironment', node, { targetDir });
      assert.ok(result, 'the command returns the checkout result');
      assert.equal(result.record.task.baseSha, repo.kept.base);
      const recorded = JSON.parse(fs.readFileSync(taskFolder(targetDir).environmentFile, 'utf8')) as { runtime: string; image?: string };
      image = recorded.image;
      assert.equal(recorded.runtime, 'docker', 'the task records its image as where its tests run');
      assert.match(image ?? '', /^sweci-curate\/toy:[0-9a-f]{16}$/);
      const run = result.current?.run;
      assert.equal(run?.kind, 'ran', `pytest ran on the base in the image${run?.kind === 'did-not-run' ? `, not: ${run.reason}` : ''}`);
      assert.match(run.command ?? '', /^python -m pytest tests /, "the image's pytest, as the harness runs it");
      assert.equal(result.current?.gap, 1, "the oracle's new test is the gap");
      const built = await conn.docker.getImage(image!).inspect();
      assert.equal(built.Config.Labels?.['dev.swe-ci.curation-key'], image!.split(':')[1], "the curation's own build, labelled with its key");

      // A candidate whose oracle declares what no index has: the build fails and says why, nothing is checked out.
      await fs.promises.rm(path.join(wheels, 'requests-2.0-py3-none-any.whl'));
      const failedDir = path.join(scratch, 'task-not-built');
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('sweci.buildCandidateEnvironment', node, { targetDir: failedDir })),
        /the image did not build: .*requests/,
      );
      assert.equal(fs.existsSync(taskFolder(failedDir).taskFile), false, 'nothing is checked out');
    } finally {
      await sweci.releaseEnvironment();
      assert.deepEqual(await ourContainers(conn), [], 'no container is left');
      if (image) await conn.docker.getImage(image).remove({ force: true });
    }
  });
});
