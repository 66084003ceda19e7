// Step 2 on repositories built by code: the candidate list is exactly the expected one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { mineSpans, type FoundSpan, type MineOptions } from '../../../src/core/curate/mine';
import { openSourceRepository } from '../../../src/core/curate/source-repository';
import { History, lines } from './history-fixture';

let tmp: string;
let n = 0;
const noThresholds: MineOptions = { lockfiles: false, minChangedLines: 0, minSourceLines: 0 };
const TEST = 'def test_one():\n    assert True\n';
const pyproject = (deps: string[]) => `[project]\nname = "demo"\ndependencies = [${deps.map((d) => JSON.stringify(d)).join(', ')}]\n`;

async function build(h: History): Promise<{ dir: string; sha: Map<number, string> }> {
  const dir = path.join(tmp, `repo-${++n}`);
  return { dir, sha: await h.write(dir) };
}

/** The candidates as [base mark, oracle mark], with their drop codes. */
async function spans(h: History, options: MineOptions = noThresholds): Promise<Array<[number, number, string?]>> {
  const { dir, sha } = await build(h);
  const markOf = new Map([...sha].map(([m, s]) => [s, m]));
  const found: FoundSpan[] = [];
  const result = await mineSpans(dir, 'main', { ...options, onSpan: (span) => found.push(span) });
  // Every candidate was reported as the walk found it, in order, with the same facts (lines aside).
  assert.deepEqual(
    found,
    result.candidates.map(({ changedLines: _c, sourceLines: _s, dropped: _d, ...span }) => span),
  );
  return result.candidates.map((c) => {
    const pair: [number, number, string?] = [markOf.get(c.base) as number, markOf.get(c.oracle) as number];
    if (c.dropped) pair.push(c.dropped.code);
    return pair;
  });
}

describe('mining spans', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-curate-mine-')));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('a dependency change ends a span; a lone commit between two changes is no candidate', async () => {
    const h = new History();
    h.commit('main', { 'pyproject.toml': pyproject(['a']), 'tests/test_x.py': TEST }); // 1
    h.commit('main', { 'src/m.py': lines(3, 'a') }); // 2
    h.commit('main', { 'src/m.py': lines(4, 'a') }); // 3
    h.commit('main', { 'pyproject.toml': pyproject(['a', 'b']) }); // 4: alone
    h.commit('main', { 'pyproject.toml': pyproject(['a', 'c']) }); // 5
    h.commit('main', { 'src/m.py': lines(5, 'a') }); // 6
    assert.deepEqual(await spans(h), [
      [1, 3],
      [5, 6],
    ]);
  });

  test('reorder, recase, whitespace, comments and unrelated sections change nothing, in every file kind', async () => {
    const h = new History();
    h.commit('main', {
      'pyproject.toml': '[project]\nname = "demo"\ndependencies = ["Alpha>=1", "beta"]\n\n[tool.black]\nline-length = 88\n',
      'setup.cfg': '[options]\ninstall_requires =\n    gamma\n    delta\n',
      'setup.py': 'from setuptools import setup\nsetup(install_requires=["eps"])\n',
      'requirements.txt': '-r requirements/dev.txt\nzeta==1\n',
      'requirements/dev.txt': 'eta\n',
      'tests/test_x.py': TEST,
    }); // 1
    h.commit('main', {
      'pyproject.toml': '[project]\nname = "demo"\ndependencies = [\n  "beta",   # second\n  "alpha >= 1",\n]\n\n[tool.black]\nline-length = 100\n',
    }); // 2
    h.commit('main', { 'setup.cfg': '# reordered\n[options]\ninstall_requires =\n    Delta\n    gamma  # why\n[metadata]\nname = demo\n' }); // 3
    h.commit('main', { 'setup.py': 'from setuptools import setup\n\n# a comment\nsetup(\n    install_requires = [ "EPS" ],\n)\n' }); // 4
    h.commit('main', { 'requirements.txt': '# pinned\nZeta == 1\n\n-r requirements/dev.txt\n', 'requirements/dev.txt': 'eta  # tools\n' }); // 5
    h.commit('main', { 'README.md': 'docs\n', 'docs/requirements.txt': 'sphinx\n' }); // 6: not a dependency file of the project
    h.commit('main', { 'requirements/dev.txt': 'eta>=2\n' }); // 7: an included file changed: a real change
    h.commit('main', { 'src/m.py': lines(2, 'x') }); // 8
    assert.deepEqual(await spans(h), [
      [1, 6],
      [7, 8],
    ]);
  });

  test('a change made and undone inside a merged side branch is invisible to the first-parent chain', async () => {
    const h = new History();
    h.commit('main', { 'pyproject.toml': pyproject(['a']), 'tests/test_x.py': TEST }); // 1
    h.commit('side', { 'pyproject.toml': pyproject(['a', 'b']) }, { from: 'main' }); // 2
    h.commit('side', { 'src/m.py': lines(3, 's') }); // 3
    h.commit('side', { 'pyproject.toml': pyproject(['a']) }); // 4: reverted
    h.commit('main', { 'src/n.py': lines(3, 'm') }); // 5
    h.commit('main', { 'src/m.py': lines(3, 's') }, { mergeFrom: 'side' }); // 6: the merge
    h.commit('main', { 'src/n.py': lines(4, 'm') }); // 7
    assert.deepEqual(await spans(h), [[1, 7]]);
    // A side branch whose change stays: the merge is where the first-parent chain sees it.
    const g = new History();
    g.commit('main', { 'pyproject.toml': pyproject(['a']), 'tests/test_x.py': TEST }); // 1
    g.commit('side', { 'pyproject.toml': pyproject(['a', 'b']) }, { from: 'main' }); // 2
    g.commit('main', { 'src/n.py': lines(3, 'm') }); // 3
    g.commit('main', { 'pyproject.toml': pyproject(['a', 'b']) }, { mergeFrom: 'side' }); // 4
    g.commit('main', { 'src/n.py': lines(4, 'm') }); // 5
    assert.deepEqual(await spans(g), [
      [1, 3],
      [4, 5],
    ]);
  });

  test('spans just under and just over each line threshold', async () => {
    const options: MineOptions = { lockfiles: false, minChangedLines: 100, minSourceLines: 50 };
    const h = new History();
    const dep = (k: number) => ({ 'pyproject.toml': pyproject([`d${k}`]) });
    // Span A (1-2): 99 changed lines, all source: under --min-changed-lines.
    h.commit('main', { ...dep(1), 'tests/test_x.py': TEST }); // 1
    h.commit('main', { 'src/a.py': lines(99, 'a') }); // 2
    // Span B (3-4): exactly 100 changed, 50 source: kept.
    h.commit('main', dep(2)); // 3
    h.commit('main', { 'src/b.py': lines(50, 'b'), 'tests/test_b.py': lines(50, 'tb') }); // 4
    // Span C (5-6): 100 changed, 49 source (the rest in tests/, test_*.py, *_test.py, conftest.py): under --min-source-lines.
    h.commit('main', dep(3)); // 5
    h.commit('main', {
      'src/c.py': lines(49, 'c'),
      'pkg/tests/helpers.py': lines(20, 'h'),
      'pkg/test_c.py': lines(10, 'tc'),
      'c_test.py': lines(10, 'ct'),
      'conftest.py': lines(11, 'cf'),
    }); // 6
    // Span D (7-8): a rewrite counts deletions too: 60 deleted + 60 added.
    h.commit('main', { ...dep(4), 'src/d.py': lines(60, 'd') }); // 7
    h.commit('main', { 'src/d.py': lines(60, 'e') }); // 8
    assert.deepEqual(await spans(h, options), [
      [1, 2, 'min-changed-lines'],
      [3, 4],
      [5, 6, 'min-source-lines'],
      [7, 8],
    ]);
  });

  test('--max-span-commits cuts a long span into windows that share their ends', async () => {
    const h = new History();
    h.commit('main', { 'pyproject.toml': pyproject(['a']), 'tests/test_x.py': TEST });
    for (let i = 0; i < 6; i++) h.commit('main', { 'src/m.py': lines(i + 1, 'w') }); // 2..7
    assert.deepEqual(await spans(h, { ...noThresholds, maxSpanCommits: 3 }), [
      [1, 3],
      [3, 5],
      [5, 7],
    ]);
    assert.deepEqual(await spans(h, { ...noThresholds, maxSpanCommits: 7 }), [[1, 7]]);
  });

  test('lockfiles end spans only with --lockfiles', async () => {
    const h = new History();
    h.commit('main', { 'pyproject.toml': pyproject(['a']), 'uv.lock': 'a 1.0\n', 'tests/test_x.py': TEST }); // 1
    h.commit('main', { 'src/m.py': lines(2, 'l') }); // 2
    h.commit('main', { 'uv.lock': 'a 1.1\n' }); // 3
    h.commit('main', { 'src/m.py': lines(3, 'l') }); // 4
    assert.deepEqual(await spans(h), [[1, 4]]);
    assert.deepEqual(await spans(h, { ...noThresholds, lockfiles: true }), [
      [1, 2],
      [3, 4],
    ]);
  });

  test('an oracle without tests is dropped; the dependency change that ended a span is recorded', async () => {
    const h = new History();
    h.commit('main', { 'pyproject.toml': pyproject(['a']) }); // 1
    h.commit('main', { 'src/m.py': lines(2, 'n') }); // 2: no tests yet
    h.commit('main', { 'pyproject.toml': pyproject(['a', 'B_c']), 'tests/test_x.py': TEST }); // 3
    h.commit('main', { 'src/m.py': lines(3, 'n') }); // 4
    const { dir, sha } = await build(h);
    const result = await mineSpans(dir, 'main', noThresholds);
    assert.equal(result.commits, 4);
    assert.equal(result.dependencyChanges, 1);
    assert.deepEqual(result.candidates[0].dropped?.code, 'no-tests');
    assert.deepEqual(result.candidates[0].endedBy, { commit: sha.get(3), added: ['project|b-c'], removed: [] });
    assert.equal(result.candidates[1].dropped, undefined);
    assert.equal(result.candidates[1].endedBy, undefined);
    assert.equal(result.candidates[1].days, 1);
    assert.equal(result.candidates[1].commits, 2);
  });

  test('a pyproject.toml that is not TOML is named with its commit, and its content counts', async () => {
    const h = new History();
    h.commit('main', { 'pyproject.toml': pyproject(['a']), 'tests/test_x.py': TEST }); // 1
    h.commit('main', { 'pyproject.toml': '[project\nbroken' }); // 2
    h.commit('main', { 'src/m.py': lines(2, 'b') }); // 3
    const { dir, sha } = await build(h);
    const result = await mineSpans(dir, 'main', noThresholds);
    assert.deepEqual(result.problems, [`pyproject.toml: not valid TOML (${result.problems[0].split('(')[1].split(')')[0]}) (at commit ${sha.get(2)})`]);
    assert.deepEqual(
      result.candidates.map((c) => [c.base, c.oracle]),
      [[sha.get(2), sha.get(3)]],
    );
  });

  test('bad input: no tests, not a repository, a shallow clone, a branch that does not exist', async () => {
    const h = new History();
    h.commit('main', { 'pyproject.toml': pyproject(['a']) });
    h.commit('main', { 'src/m.py': lines(2, 'z') });
    const { dir } = await build(h);
    await assert.rejects(mineSpans(dir, 'main', noThresholds), /No tests found on the first-parent chain of main/);
    const plain = path.join(tmp, 'plain');
    await fs.mkdir(plain);
    await assert.rejects(openSourceRepository(plain, undefined, undefined), /is not a git repository/);
    const shallow = path.join(tmp, 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${dir}`, shallow]);
    await assert.rejects(openSourceRepository(shallow, undefined, undefined), /shallow clone.*git -C .* fetch --unshallow/);
    await assert.rejects(openSourceRepository(dir, 'nope', undefined), /No branch or commit "nope"/);
    await assert.rejects(openSourceRepository(dir, '--output=x', undefined), /is not a branch name/);
    assert.equal((await openSourceRepository(dir, undefined, undefined)).ref, 'HEAD');
  });
});
