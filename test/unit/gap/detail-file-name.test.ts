import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detailFileNames } from '../../../src/core/gap/detail-file-name';
import { fixturesDir } from '../helpers/repo-root';

/** One test's detail file name (no other id to clash with). */
const detailFileName = (nodeid: string): string => detailFileNames([nodeid]).get(nodeid)!;
/** The reference's name: ours, without the .json we add to names of 100 characters or fewer. */
const referenceDetailFileName = (nodeid: string): string => {
  const ours = detailFileName(nodeid);
  return Array.from(nodeid).length > 100 ? ours : ours.replace(/\.json$/, '');
};

// Expected values were produced by running the reference rule in Python 3.11.
const LONG_ID = 'tests/test_long.py::test_param[' + 'abcdefghij'.repeat(12) + ']';
const LONG_NAME = 'tests_test_long.py__test_param_abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi_0a5044f135dd.json';
const UNICODE_LONG_ID = 'tests/test_ü.py::test_' + 'é😀'.repeat(60);
const UNICODE_LONG_NAME = 'tests_test_ü.py__test_' + 'é_'.repeat(39) + '_dd16ab396280.json';

test('short names: the reference name, plus our .json suffix', () => {
  const id = 'tests/test_ops.py::TestDiv::test_div_str_ids[weird id [1]::x]';
  assert.equal(referenceDetailFileName(id), 'tests_test_ops.py__TestDiv__test_div_str_ids_weird_id__1___x_');
  assert.equal(detailFileName(id), 'tests_test_ops.py__TestDiv__test_div_str_ids_weird_id__1___x_.json');
});

test('Unicode letters and digits are kept like Python str.isalnum; an emoji is one character', () => {
  assert.equal(referenceDetailFileName('tests/test_ü.py::test_名前[é-😀-²-½]'), 'tests_test_ü.py__test_名前_é___²_½_');
});

test('long names: first 100 characters + _ + 12 hex of sha256 + .json, same as the reference', () => {
  assert.equal(referenceDetailFileName(LONG_ID), LONG_NAME);
  assert.equal(detailFileName(LONG_ID), LONG_NAME);
  assert.equal(referenceDetailFileName(UNICODE_LONG_ID), UNICODE_LONG_NAME);
  assert.equal(detailFileName(UNICODE_LONG_ID), UNICODE_LONG_NAME);
});

test('the boundary is at 100 characters', () => {
  assert.equal(detailFileName('x'.repeat(100)), 'x'.repeat(100) + '.json');
  assert.equal(detailFileName('x'.repeat(101)), 'x'.repeat(100) + '_c675a2e604b0.json');
});

test('the reference detail files of the fixture are named by referenceDetailFileName', () => {
  const dir = path.join(fixturesDir, 'pytest-reports', 'reference-non-passed');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f !== 'summary.jsonl')
    .sort();
  const ids = fs
    .readFileSync(path.join(dir, 'summary.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { test: string; description: string })
    .filter((l) => l.description.startsWith('Test '))
    .map((l) => l.test);
  assert.equal(ids.length, 11);
  assert.deepEqual(ids.map(referenceDetailFileName).sort(), files);
});

test('clashing names get the id hash, case-insensitively; unique names are unchanged', () => {
  const names = detailFileNames(['t.py::t[a/b]', 't.py::t[a_b]', 't.py::T[a_b]', 't.py::other', 't.py::t[a/b]']);
  assert.equal(names.size, 4);
  assert.equal(names.get('t.py::t[a/b]'), 't.py__t_a_b_.json');
  assert.match(names.get('t.py::t[a_b]') ?? '', /^t\.py__t_a_b__[0-9a-f]{12}\.json$/);
  assert.match(names.get('t.py::T[a_b]') ?? '', /^t\.py__T_a_b__[0-9a-f]{12}\.json$/);
  assert.equal(names.get('t.py::other'), 't.py__other.json');
  const lower = new Set([...names.values()].map((n) => n.toLowerCase()));
  assert.equal(lower.size, 4);
});
