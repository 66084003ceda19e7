// The Iterations view's text (no VS Code API involved).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IterationRecord } from '../../../src/core/loop/iteration-record';
import { changeOf, formatTokens, iterationDescription, iterationTooltip } from '../../../src/extension/revisions/iteration-text';

const rec = (r: Partial<IterationRecord>): IterationRecord => ({
  gap: 42,
  pytest: { passed: 18, failed: 42 },
  iteration: 0,
  run: 'r',
  started_at: '',
  finished_at: '',
  commit: 'abcdef0123456789',
  passed: 18,
  target_passed: 60,
  regressions: [],
  tampered: [],
  outside_changes: [],
  ...r,
});
const line0 = rec({});

test('a(c) of an iteration against line 0', () => {
  assert.equal(changeOf(rec({ iteration: 1, gap: 21, pytest: { passed: 39 } }), line0), 0.5);
  assert.equal(changeOf(rec({ iteration: 1, gap: -1, pytest: {} }), line0), undefined, 'pytest did not run');
  assert.equal(changeOf(rec({ iteration: 1 }), rec({ gap: -1 })), undefined, 'no baseline');
});

test('the row is short (a(c), gap, regressions); passed/target and the roles are in the tooltip', () => {
  const r = rec({
    iteration: 2,
    gap: 30,
    pytest: { passed: 30 },
    passed: 30,
    regressions: ['t::a', 't::b'],
    architect: { kind: 'agent', agent: 'claude-code', tries: 1, execution_time: 12.3, input_tokens: 4500, output_tokens: 800 },
    programmer: { kind: 'human', agent: 'human', tries: 1, execution_time: 300 },
  });
  assert.equal(iterationDescription(r, line0), 'a(c) 0.29 · gap 30 · ↓2');
  const tip = iterationTooltip(r, line0);
  assert.match(tip, /a\(c\) 0\.29 · 30\/60 target tests pass · gap 30/);
  assert.match(tip, /\*\*Iteration 2\*\* of r/);
  assert.match(tip, /Architect: claude-code, 12\.3 s, 4\.5k in \/ 800 out tokens/);
  assert.match(tip, /Programmer: human, 300\.0 s/);
  assert.match(tip, /Regressed \(2\):\n- `t::a`\n- `t::b`/);
  assert.match(tip, /commit `abcdef012345`/);
});

test("a replay's commit subject is in the tooltip, not the row", () => {
  const later = rec({ iteration: 3, architect: { kind: 'human', agent: 'human', tries: 1 }, note: 'Add CSV import' });
  assert.equal(iterationDescription(later, line0), 'a(c) 0.00 · gap 42');
  assert.match(iterationTooltip(later, line0), /Add CSV import/);
});

test('a crashed pytest run says so', () => {
  const r = rec({ iteration: 3, gap: -1, pytest: {}, passed: null, pytest_error: 'pytest exited with code 2' });
  assert.equal(iterationDescription(r, line0), 'pytest did not run');
  assert.match(iterationTooltip(r, line0), /pytest did not run: pytest exited with code 2/);
});

test('text the code under test or an agent wrote cannot become a link, an image or formatting in the tooltip', () => {
  const hostile = 'E   Error: see ![x](https://evil.example/p.png) and [click](command:workbench.action.terminal.new) **now**';
  const r = rec({
    iteration: 3,
    gap: -1,
    pytest: {},
    passed: null,
    pytest_error: hostile,
    outside_changes: ['[a](https://evil.example)'],
    note: '<img src=x>',
  });
  const md = iterationTooltip(r, line0);
  for (const raw of ['![x](', '[click](', '**now**', '[a](', '<img']) {
    // Unescaped: not preceded by a backslash.
    const unescaped = new RegExp(`(^|[^\\\\])${raw.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm');
    assert.ok(!unescaped.test(md), `${raw} reaches the Markdown unescaped:\n${md}`);
  }
  assert.ok(md.includes('\\!\\[x\\]\\(https://evil\\.example/p\\.png\\)'), md);
});

test('token counts are short', () => {
  assert.equal(formatTokens(undefined), undefined);
  assert.equal(formatTokens(950), '950');
  assert.equal(formatTokens(4500), '4.5k');
  assert.equal(formatTokens(123456), '123k');
});

test('harness tampering and a run without isolation are said in the row and its tooltip', () => {
  const r = rec({ iteration: 1, gap: 0, pytest: { passed: 60 }, passed: 60, harness_tampering: ['conftest.py'], isolation: 'none' });
  assert.equal(iterationDescription(r, line0), 'a(c) 1.00 · gap 0 · ⚠ harness +1');
  const tip = iterationTooltip(r, line0);
  assert.match(tip, /harness tampering\): conftest\\\.py/, 'the path, escaped for markdown');
  assert.match(tip, /Not isolated: the agents and the code under test could read the oracle/);
  assert.doesNotMatch(iterationDescription(rec({ iteration: 1, isolation: 'sandbox' }), line0), /isolated|harness/);
});

test('an inflated iteration says how many passes the target never had, and names the first ones', () => {
  const ids = Array.from({ length: 7 }, (_, i) => `tests/test_units.py::test_unit_roundtrip[fake${i}]`);
  const r = rec({ iteration: 1, gap: 42, pytest: { passed: 38 }, passed: 18, inflated: ids, inflated_count: 20 });
  const tip = iterationTooltip(r, line0);
  assert.match(tip, /Inflated: 20 passed tests the target never had \(counted by pytest, not by the target\): /);
  assert.match(tip, /fake4\\\], …$/m, 'five named, then an ellipsis');
  assert.doesNotMatch(tip, /fake5/);
  assert.doesNotMatch(iterationTooltip(rec({ iteration: 1 }), line0), /Inflated/);
});
