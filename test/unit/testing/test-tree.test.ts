// Test Explorer's tree from real reports: files, classes, functions, parametrized cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildTestTree, definitionLine, pastDecorators, splitNodeId, type TestNode } from '../../../src/core/pytest/test-tree';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import { fixturesDir } from '../helpers/repo-root';
import { MIXED_TESTS } from '../pytest/python-project';

const read = (rel: string) => parseJsonReport(fs.readFileSync(path.join(fixturesDir, rel), 'utf8'));
const base = read('pytest-reports/base.report.json');
const target = read('pytest-reports/target.report.json');

function find(nodes: readonly TestNode[], id: string): TestNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const c = find(n.children, id);
    if (c) return c;
  }
  return undefined;
}
function leafIds(nodes: readonly TestNode[]): string[] {
  return nodes.flatMap((n) => (n.children.length ? leafIds(n.children) : [n.id]));
}

test('node ids split at :: outside the parameters, and a [ in a folder is not a parameter', () => {
  assert.deepEqual(splitNodeId('tests/test_ops.py::TestDiv::test_div_str_ids[weird id [1]::x]'), {
    file: 'tests/test_ops.py',
    names: ['TestDiv', 'test_div_str_ids'],
    params: '[weird id [1]::x]',
  });
  assert.deepEqual(splitNodeId('tests/case[1]/test_bracket_dir.py::test_in_bracket_dir'), {
    file: 'tests/case[1]/test_bracket_dir.py',
    names: ['test_in_bracket_dir'],
    params: '',
  });
});

test('the tree holds every test of both reports once, leaves being the node ids', () => {
  const tree = buildTestTree([base, target]);
  const all = new Set([...base.tests, ...target.tests].map((t) => t.nodeid));
  const leaves = leafIds(tree);
  assert.equal(leaves.length, all.size);
  assert.deepEqual(new Set(leaves), all);
  // Files are the roots, in the order first seen.
  assert.ok(tree.every((n) => n.kind === 'file' && !n.id.includes('::')));
});

test("tests the current code does not collect (only in the target) are listed, with the target's line", () => {
  const onlyTarget = target.tests.filter((t) => !base.tests.some((b) => b.nodeid === t.nodeid));
  assert.ok(onlyTarget.length >= 3);
  const tree = buildTestTree([base, target]);
  for (const t of onlyTarget) assert.ok(find(tree, t.nodeid), `${t.nodeid} is in the tree`);
  assert.equal(find(buildTestTree([base]), onlyTarget[0].nodeid), undefined);
});

test('parametrized cases are children of their function, which carries the definition line; classes group methods', () => {
  const tree = buildTestTree([base, target]);
  const id = 'tests/test_ops.py::TestDiv::test_div_str_ids[weird id [1]::x]';
  const fn = find(tree, 'tests/test_ops.py::TestDiv::test_div_str_ids');
  assert.equal(fn?.kind, 'function');
  const c = fn?.children.find((x) => x.id === id);
  assert.equal(c?.kind, 'case');
  assert.equal(c?.label, '[weird id [1]::x]');
  assert.equal(fn?.lineno, base.tests.find((t) => t.nodeid === id)?.lineno);
  const cls = find(tree, 'tests/test_ops.py::TestDiv');
  assert.equal(cls?.kind, 'class');
  assert.ok(cls?.children.some((x) => x.id === 'tests/test_ops.py::TestDiv::test_div_by_zero'));
  const plain = find(tree, 'tests/test_ops.py::test_sub');
  assert.deepEqual([plain?.kind, plain?.lineno, plain?.children.length], ['function', 8, 0]);
});

test('a definition line is found by scanning the source, inside its class', () => {
  const src = MIXED_TESTS['tests/test_ops.py'];
  assert.equal(definitionLine(src, ['test_sub']), 8);
  assert.equal(definitionLine(src, ['TestMore']), 12);
  assert.equal(definitionLine(src, ['TestMore', 'test_skip']), 17);
  assert.equal(definitionLine(src, ['TestMore', 'test_add']), undefined, 'test_add is not in TestMore');
  assert.equal(definitionLine(src, ['test_nothing']), undefined);
  assert.equal(definitionLine('async def test_a():\n    pass\n', ['test_a']), 0);
});

test("a decorated test's line (pytest gives the decorator's) moves down to its def", () => {
  const src = MIXED_TESTS['tests/test_ops.py'];
  // Line 13 is TestMore.test_param's @pytest.mark.parametrize, line 21 test_xfail's @xfail.
  assert.equal(pastDecorators(src, 13), 14);
  assert.equal(pastDecorators(src, 21), 22);
  assert.equal(pastDecorators(src, 8), 8, 'an undecorated def stays');
  assert.equal(pastDecorators(src, 12), 12, 'a class line stays');
});
