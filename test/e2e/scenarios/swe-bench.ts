// A SWE-bench-style instance checked out with the bundled CLI, then opened in VS Code: the
// SWE-CI view shows the instance's FAIL_TO_PASS tests as the non-passed set, as for any task.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../../unit/helpers/repo-root';
import { TestRepo, git } from '../../unit/task/git-fixture';
import { withWorkbench } from '../../harness/workbench';

export async function sweBenchScenario(): Promise<string> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-swebench-'));
  try {
    const repo = await TestRepo.create(path.join(scratch, 'clones', 'acme__calc'));
    const base = await repo.commit('calc', {
      'src/calc/__init__.py': '',
      'src/calc/ops.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n',
      'tests/test_ops.py': 'from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    });
    fs.appendFileSync(path.join(repo.dir, 'tests/test_ops.py'), '\n\ndef test_mul():\n    from calc.ops import mul\n    assert mul(2, 3) == 6\n');
    fs.writeFileSync(path.join(repo.dir, 'tests/test_zero.py'), 'from calc.ops import mul\n\n\ndef test_mul_zero():\n    assert mul(0, 7) == 0\n');
    git(repo.dir, ['add', '-A']);
    const testPatch = git(repo.dir, ['diff', '--cached', base]) + '\n';
    git(repo.dir, ['reset', '-q', '--hard', base]);
    const instances = path.join(scratch, 'instances.jsonl');
    const instance = {
      instance_id: 'acme__calc-42',
      repo: 'acme/calc',
      base_commit: base,
      test_patch: testPatch,
      FAIL_TO_PASS: ['tests/test_ops.py::test_mul', 'tests/test_zero.py::test_mul_zero'],
      PASS_TO_PASS: ['tests/test_ops.py::test_add'],
      problem_statement: 'mul adds instead of multiplying',
    };
    fs.writeFileSync(instances, JSON.stringify(instance) + '\n');
    const folder = path.join(scratch, 'task');
    const cli = path.join(repoRoot, 'dist', 'cli.js');
    const args = ['checkout', '--instances', instances, '--repos', path.join(scratch, 'clones'), '--into', folder, '--runtime', 'local'];
    const out = spawnSync(process.execPath, [cli, ...args, '--oracle', path.join(scratch, 'oracle')], { encoding: 'utf8' });
    if (out.status !== 0 || !out.stdout.includes('gap 2')) throw new Error(`sweci checkout failed (exit ${out.status}):\n${out.stdout}\n${out.stderr}`);

    return await withWorkbench({ folder, name: 'swe-bench', viewport: { width: 1400, height: 900 } }, async (page, wb) => {
      await wb.openSweciView();
      await wb.waitForTreeRow('test_mul_zero');
      await wb.waitForTreeRow('test_mul');
      // An instance has no upstream history to replay: the Iterations view does not offer it.
      const welcome = await wb.waitForWelcomeView('No runs yet');
      if (/Record Human History/.test(await welcome.innerText())) throw new Error('the Iterations view offers Record Human History for an instance');
      await page.waitForTimeout(800);
      return wb.screenshot('swe-bench');
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
