// A SWE-Bench-CL sequence built from a generated repository: three tasks with real test patches
// and real FAIL_TO_PASS lists, and settings for a scripted Programmer (seq-edit.py) that fixes
// task 1 and breaks it again while doing tasks 2 and 3. It tells the tasks apart only through
// its memory folder. Used by the CLI tests and the e2e scenario.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { TestRepo, git } from '../task/git-fixture';
import { FIXTURE_AGENTS } from './scripted-settings';

export interface SequenceFixture {
  /** The folder holding the clone (calc/), so it is a --repos folder too. */
  reposDir: string;
  sequenceFile: string;
  settingsFile: string;
  sequenceId: string;
  taskIds: string[];
}

const OPS = (mul: string, extra = '') => `def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return ${mul}\n${extra}`;
const SUB = '\n\ndef sub(a, b):\n    return a - b\n';
const DIV = '\n\ndef div(a, b):\n    return a / b\n';
const testFile = (name: string, fn: string, expr: string) => `from calc.ops import ${fn}\n\n\ndef test_${name}():\n    assert ${expr}\n`;

/** A test patch as SWE-bench makes it: the diff that adds `files`, made on `base` and not committed. */
async function testPatch(repo: TestRepo, base: string, files: Record<string, string>): Promise<string> {
  git(repo.dir, ['checkout', '-q', base]);
  for (const [rel, content] of Object.entries(files)) await fs.writeFile(path.join(repo.dir, rel), content);
  git(repo.dir, ['add', '-A']);
  const patch = git(repo.dir, ['diff', '--cached', base]) + '\n';
  git(repo.dir, ['reset', '-q', '--hard', base]);
  git(repo.dir, ['checkout', '-q', 'main']);
  return patch;
}

/** Writes the repository (dir/calc), the sequence file and the settings file under `dir`. */
export async function buildSequenceFixture(dir: string): Promise<SequenceFixture> {
  const repo = await TestRepo.create(path.join(dir, 'calc'));
  const base1 = await repo.commit('calc with a wrong mul', {
    'src/calc/__init__.py': '',
    'src/calc/ops.py': OPS('a + b'),
    'tests/test_add.py': testFile('add', 'add', 'add(2, 3) == 5'),
  });
  const mulTest = { 'tests/test_mul.py': testFile('mul', 'mul', 'mul(2, 3) == 6') };
  const base2 = await repo.commit('fix mul', { 'src/calc/ops.py': OPS('a * b'), ...mulTest });
  const subTest = { 'tests/test_sub.py': testFile('sub', 'sub', 'sub(5, 3) == 2') };
  const base3 = await repo.commit('add sub', { 'src/calc/ops.py': OPS('a * b', SUB), ...subTest });
  const divTest = { 'tests/test_div.py': testFile('div', 'div', 'div(6, 3) == 2') };
  await repo.commit('add div', { 'src/calc/ops.py': OPS('a * b', SUB + DIV), ...divTest });

  const task = async (n: number, base: string, tests: Record<string, string>, f2p: string, p2p: string[]) => ({
    metadata: { instance_id: `acme__calc-${n}`, repo: 'acme/calc', base_commit: base, created_at: `2024-01-0${n}` },
    task: { problem_statement: `task ${n}` },
    evaluation: { test_patch: await testPatch(repo, base, tests), FAIL_TO_PASS: JSON.stringify([f2p]), PASS_TO_PASS: JSON.stringify(p2p) },
  });
  const sequenceId = 'calc_sequence';
  const sequence = {
    sequences: [
      {
        id: sequenceId,
        repo: 'acme/calc',
        tasks: [
          await task(1, base1, mulTest, 'tests/test_mul.py::test_mul', []),
          await task(2, base2, subTest, 'tests/test_sub.py::test_sub', []),
          await task(3, base3, divTest, 'tests/test_div.py::test_div', []),
        ],
      },
    ],
  };
  const sequenceFile = path.join(dir, 'sequences.json');
  await fs.writeFile(sequenceFile, JSON.stringify(sequence, null, 2));

  // Task 1: fix mul. Tasks 2 and 3: add what is asked, with mul written wrong again.
  const edits = [{ 'src/calc/ops.py': OPS('a * b') }, { 'src/calc/ops.py': OPS('a + b', SUB) }, { 'src/calc/ops.py': OPS('a + b', SUB + DIV) }];
  const settingsFile = path.join(dir, 'settings.json');
  await fs.writeFile(
    settingsFile,
    JSON.stringify({
      'sweci.architect.agent': 'custom',
      'sweci.architect.customCommand': `python3 ${JSON.stringify(path.join(FIXTURE_AGENTS, 'architect.py'))}`,
      'sweci.programmer.agent': 'custom',
      'sweci.programmer.customCommand': `python3 ${JSON.stringify(path.join(FIXTURE_AGENTS, 'seq-edit.py'))}`,
      'sweci.programmer.env': { SWECI_SCRIPTED_EDITS_SEQ: JSON.stringify(edits) },
      'sweci.sandboxReadablePaths': [FIXTURE_AGENTS],
    }),
  );
  return { reposDir: dir, sequenceFile, settingsFile, sequenceId, taskIds: [1, 2, 3].map((n) => `acme__calc-${n}`) };
}
