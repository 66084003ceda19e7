// SWE-bench-style instances and SWE-Bench-CL sequences: the formats as their files hold them, and
// bad input refused with the file, the instance and the field named.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSweBenchClSequences, parseSweBenchInstances } from '../../../src/core/task/swe-bench-instance';
import { UserError } from '../../../src/core/util/errors';

const BASE = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const instance = (over: Record<string, unknown> = {}) => ({
  instance_id: 'acme__calc-12',
  repo: 'acme/calc',
  base_commit: BASE,
  test_patch: 'diff --git a/tests/test_ops.py b/tests/test_ops.py\n',
  // As SWE-bench's own files hold them: JSON text of a list.
  FAIL_TO_PASS: JSON.stringify(['tests/test_ops.py::test_div']),
  PASS_TO_PASS: JSON.stringify(['tests/test_ops.py::test_add', 'tests/test_ops.py::test_sub']),
  problem_statement: 'div() raises on valid input',
  version: 1.2,
  ...over,
});

function refused(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof UserError, String(err));
    assert.match(err.message, pattern);
    return true;
  });
}

describe('SWE-bench-style instances', () => {
  test('one JSON object, a JSON list and JSON Lines give the same instances', () => {
    const one = parseSweBenchInstances(JSON.stringify(instance()), 'i.json');
    assert.deepEqual(one, [
      {
        instanceId: 'acme__calc-12',
        repo: 'acme/calc',
        baseCommit: BASE,
        testPatch: 'diff --git a/tests/test_ops.py b/tests/test_ops.py\n',
        failToPass: ['tests/test_ops.py::test_div'],
        passToPass: ['tests/test_ops.py::test_add', 'tests/test_ops.py::test_sub'],
        problemStatement: 'div() raises on valid input',
        version: '1.2',
      },
    ]);
    const two = [instance(), instance({ instance_id: 'acme__calc-13', FAIL_TO_PASS: ['tests/test_ops.py::test_mod'], PASS_TO_PASS: [] })];
    const list = parseSweBenchInstances(JSON.stringify(two, null, 2), 'l.json');
    const lines = parseSweBenchInstances(two.map((t) => JSON.stringify(t)).join('\n') + '\n\n', 'l.jsonl');
    assert.deepEqual(lines, list);
    assert.deepEqual(
      list.map((i) => [i.instanceId, i.failToPass, i.passToPass]),
      [
        ['acme__calc-12', ['tests/test_ops.py::test_div'], ['tests/test_ops.py::test_add', 'tests/test_ops.py::test_sub']],
        ['acme__calc-13', ['tests/test_ops.py::test_mod'], []],
      ],
    );
  });

  test('each missing or bad field is named with its instance', () => {
    for (const field of ['instance_id', 'repo', 'base_commit', 'test_patch', 'FAIL_TO_PASS', 'PASS_TO_PASS']) {
      const bad: Record<string, unknown> = instance();
      delete bad[field];
      const who = field === 'instance_id' ? '' : ' \\(acme__calc-12\\)';
      refused(() => parseSweBenchInstances(JSON.stringify(bad), 'i.json'), new RegExp(`^i\\.json${who}: ${field} is missing\\.`));
    }
    refused(
      () => parseSweBenchInstances(JSON.stringify(instance({ base_commit: 'main; rm -rf /' })), 'i.json'),
      /base_commit "main; rm -rf \/" is not a commit id/,
    );
    refused(() => parseSweBenchInstances(JSON.stringify(instance({ repo: '../etc' })), 'i.json'), /repo "\.\.\/etc" is not "owner\/name"/);
    refused(
      () => parseSweBenchInstances(JSON.stringify(instance({ instance_id: '../x' })), 'i.json'),
      /instance_id cannot name a folder because it contains a path separator/,
    );
    refused(() => parseSweBenchInstances(JSON.stringify(instance({ FAIL_TO_PASS: '[]' })), 'i.json'), /\(acme__calc-12\): FAIL_TO_PASS is empty/);
    refused(
      () => parseSweBenchInstances(JSON.stringify(instance({ FAIL_TO_PASS: 'tests/x.py::t' })), 'i.json'),
      /FAIL_TO_PASS is text that is not a JSON list/,
    );
    refused(() => parseSweBenchInstances(JSON.stringify(instance({ PASS_TO_PASS: [''] })), 'i.json'), /PASS_TO_PASS\[0\] must be a non-empty test id/);
    refused(
      () => parseSweBenchInstances(JSON.stringify(instance({ PASS_TO_PASS: ['tests/test_ops.py::test_div'] })), 'i.json'),
      /tests\/test_ops\.py::test_div is in both FAIL_TO_PASS and PASS_TO_PASS/,
    );
    refused(
      () => parseSweBenchInstances(JSON.stringify(instance({ environment_setup_commit: 'xyz' })), 'i.json'),
      /environment_setup_commit "xyz" is not a commit id/,
    );
  });

  test('a bad line of JSON Lines, a duplicate id and an empty file are refused with where', () => {
    refused(() => parseSweBenchInstances(`${JSON.stringify(instance())}\n{oops\n`, 'i.jsonl'), /^i\.jsonl, line 2 is not JSON/);
    refused(
      () => parseSweBenchInstances(`${JSON.stringify(instance())}\n${JSON.stringify(instance())}\n`, 'i.jsonl'),
      /^i\.jsonl, line 2: instance "acme__calc-12" appears twice \(first, line 1\)/,
    );
    refused(() => parseSweBenchInstances(' \n', 'i.jsonl'), /holds no instance/);
    refused(() => parseSweBenchInstances('[1]', 'i.json'), /^i\.json, item 1: an instance must be a JSON object/);
  });
});

describe('SWE-Bench-CL sequences', () => {
  const clTask = (id: string, over: Record<string, unknown> = {}) => ({
    metadata: { instance_id: id, repo: 'acme/calc', base_commit: BASE, created_at: '2024-01-01' },
    task: { problem_statement: `fix ${id}`, hints_text: '' },
    evaluation: { patch: 'gold, never read', test_patch: 'diff', FAIL_TO_PASS: [`tests/t.py::test_${id.slice(-1)}`], PASS_TO_PASS: [], ...over },
    continual_learning: { sequence_position: 1 },
  });
  const file = (tasks: unknown[]) => JSON.stringify({ sequences: [{ id: 'acme_calc_sequence', repo: 'acme/calc', tasks }] });

  test("the nested task shape, in the file's order", () => {
    const [seq] = parseSweBenchClSequences(file([clTask('acme__calc-3'), clTask('acme__calc-1'), clTask('acme__calc-2')]), 'cl.json');
    assert.equal(seq.id, 'acme_calc_sequence');
    assert.deepEqual(
      seq.tasks.map((t) => [t.instanceId, t.problemStatement, t.failToPass[0]]),
      [
        ['acme__calc-3', 'fix acme__calc-3', 'tests/t.py::test_3'],
        ['acme__calc-1', 'fix acme__calc-1', 'tests/t.py::test_1'],
        ['acme__calc-2', 'fix acme__calc-2', 'tests/t.py::test_2'],
      ],
    );
    assert.ok(!('patch' in seq.tasks[0]), 'the gold patch is not carried');
  });

  test('bad sequences name the sequence, the task and the field', () => {
    refused(() => parseSweBenchClSequences('{"sequences": []}', 'cl.json'), /"sequences" is empty/);
    refused(() => parseSweBenchClSequences('[]', 'cl.json'), /has no "sequences" list/);
    refused(() => parseSweBenchClSequences(file([]), 'cl.json'), /sequence 1 \(acme_calc_sequence\): "tasks" must be a non-empty list/);
    refused(
      () => parseSweBenchClSequences(file([clTask('acme__calc-1', { FAIL_TO_PASS: undefined })]), 'cl.json'),
      /sequence 1 \(acme_calc_sequence\), task 1 \(acme__calc-1\): FAIL_TO_PASS is missing/,
    );
    refused(
      () =>
        parseSweBenchClSequences(
          file([{ ...clTask('acme__calc-1'), metadata: { ...clTask('x').metadata, instance_id: 'acme__calc-1', repo: 'other/repo' } }]),
          'cl.json',
        ),
      /repo "other\/repo" differs from the sequence's "acme\/calc"/,
    );
    refused(() => parseSweBenchClSequences(file([clTask('acme__calc-1'), clTask('acme__calc-1')]), 'cl.json'), /instance "acme__calc-1" appears twice/);
  });
});
