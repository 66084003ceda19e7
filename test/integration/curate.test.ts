// In the real extension host: Find Tasks in This Repository… on a repository built by code fills
// the Candidate Tasks view (a kept span, a dropped one with its reason), and a candidate's
// Check Out on This Machine makes it a git-pair task whose gap is the oracle's new test.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckOutResult } from '../../src/core/checkout/check-out-task';
import type { MinedRepository } from '../../src/extension/curate/candidates-tree';
import { curateRepository, type CurateRepository } from '../harness/curate-repository';
import { api } from './helpers';

suite('Find tasks in a repository', function () {
  this.timeout(300_000);
  let repo: CurateRepository;
  let scratch: string;

  suiteSetup(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-curate-'));
    repo = await curateRepository(path.join(scratch, 'toy'));
  });
  suiteTeardown(() => fs.rmSync(scratch, { recursive: true, force: true }));

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
});
