// "Did you mean …?": the nearest known test id, only when it is close enough to be a typo.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nearestTestId } from '../../../src/core/requirement/nearest-test-id';

const known = ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_sub', 'tests/test_calc.py::TestCalc::test_mul', 'tests/test_io.py::test_add'];

test('a typo, a missing class and a wrong case find the known id', () => {
  assert.equal(nearestTestId('tests/test_calc.py::test_ad', known), 'tests/test_calc.py::test_add');
  assert.equal(nearestTestId('tests/test_calc.py::test_mull', known), 'tests/test_calc.py::TestCalc::test_mul');
  assert.equal(nearestTestId('tests/test_io.py::test_Add', known), 'tests/test_io.py::test_add');
});

test('nothing close enough, a known id itself, or no known ids: no guess', () => {
  assert.equal(nearestTestId('tests/test_calc.py::test_completely_different', known), undefined);
  assert.equal(nearestTestId('tests/test_calc.py::test_add', known), undefined);
  assert.equal(nearestTestId('tests/test_calc.py::test_ad', []), undefined);
});

test('ties go to the first id in sorted order, whatever the order given', () => {
  const a = nearestTestId('tests/test_calc.py::test_ab', ['tests/test_calc.py::test_sb', 'tests/test_calc.py::test_aa']);
  const b = nearestTestId('tests/test_calc.py::test_ab', ['tests/test_calc.py::test_aa', 'tests/test_calc.py::test_sb']);
  assert.equal(a, 'tests/test_calc.py::test_aa');
  assert.equal(a, b);
});
